#!/usr/bin/env bash
# setup-toolchain.sh - install what hipport's tests need to compile HIP code
# for AMD GPUs on a CPU-only Debian machine (compile only, nothing is run).
#
# Usage:   scripts/setup-toolchain.sh          (no arguments; run as root or
#                                              with sudo available)
#
# What it does (idempotent; a second run takes about a second):
#   * apt-installs hipcc, the HIP runtime headers and the hipRAND/rocRAND,
#     hipSPARSE/rocSPARSE and rocPRIM -dev packages, plus cmake and make, and
#     bubblewrap (bwrap), the sandbox `hipport verify --build` runs every
#     configure and build step in (docs/verify.md, Sandbox).
#   * Debian 13 (trixie): also apt-installs hipBLAS, hipFFT, hipCUB,
#     rocThrust, hipSOLVER (and RCCL when available) system-wide.
#   * Debian 12 (bookworm): those libraries do not exist there, so their
#     -dev packages (and a matching newer rocPRIM, which hipCUB 5.7 needs)
#     are downloaded from the "trixie" suite of the mirror the machine
#     already uses, with a private apt state under .toolchain/apt-trixie,
#     and unpacked with `dpkg -x` into .toolchain/rocm-extra.  Nothing from
#     trixie is ever installed into the system.
#   * writes .toolchain/env, a shell file exporting HIPPORT_HIP_EXTRA_INCLUDES
#     (colon-separated extra include dirs; empty on Debian 13) and
#     HIP_PLATFORM=amd.  Source it before running the tests:
#         . .toolchain/env
#
# Environment:
#   CI=true                        printed in the log only; the script fails
#                                  (non-zero exit) on any error either way.
#   HIPPORT_TOOLCHAIN_REFRESH=1    re-fetch the trixie packages even when
#                                  .toolchain/rocm-extra is up to date.
#   HIPPORT_APT_MAX_AGE_MIN=N      apt lists older than N minutes are
#                                  refreshed before installing (default 1440).
#
# CUDA library headers (cuBLAS/cuRAND/cuFFT) for nvcc are NOT handled here;
# they come from the nvidia-* PyPI wheels listed in the project's test extra.
set -euo pipefail
start=$SECONDS

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TC="$REPO/.toolchain"
EXTRA="$TC/rocm-extra"
APTDIR="$TC/apt-trixie"
ENVFILE="$TC/env"

BASE_PKGS=(hipcc libamdhip64-dev libhiprand-dev librocrand-dev libhipsparse-dev
           librocsparse-dev librocprim-dev cmake make bubblewrap debootstrap)
EXTRA_DEV_PKGS=(libhipblas-dev libhipfft-dev libhipcub-dev librocthrust-dev
                libhipsolver-dev)
OPTIONAL_DEV_PKGS=(librccl-dev)
# Extra packages unpacked (never installed) on Debian 12: hipCUB/rocThrust 5.7
# from trixie refuse rocPRIM 5.3 (bookworm), so take rocPRIM 5.7 headers too.
TRIXIE_UNPACK_PKGS=("${EXTRA_DEV_PKGS[@]}" librocprim-dev)

log() { echo "[setup-toolchain] [$((SECONDS - start))s] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || die "must run as root (or with sudo available)"
  SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

log "repo: $REPO (CI=${CI:-})"

# ---------------------------------------------------------------- distro ----
codename=""
if [[ -r /etc/os-release ]]; then
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
fi
if [[ -z "$codename" && -r /etc/debian_version ]]; then
  case "$(cut -d. -f1 </etc/debian_version)" in
    12) codename=bookworm ;;
    13) codename=trixie ;;
  esac
fi
case "$codename" in
  bookworm) mode=unpack ;;
  trixie|forky|sid) mode=system ;;
  *) die "unsupported distribution (codename '${codename:-?}'); need Debian 12 or 13" ;;
esac
log "Debian codename: $codename (extra ROCm libraries: $mode)"

# ------------------------------------------------------------- apt utils ----
pkg_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

apt_lists_fresh() {
  local max_age="${HIPPORT_APT_MAX_AGE_MIN:-1440}"
  # fresh = at least one Packages index newer than max_age minutes
  [[ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin "-$max_age" -print -quit 2>/dev/null)" ]]
}

APT_UPDATED=0
apt_update() {
  if [[ $APT_UPDATED -eq 0 ]]; then
    log "apt-get update"
    "${SUDO[@]}" apt-get update -q >&2
    APT_UPDATED=1
  fi
}

has_candidate() {  # package is known to apt with an installable version
  local c
  c="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')"
  [[ -n "$c" && "$c" != "(none)" ]]
}

apt_install() {  # apt_install PKG... (installs only what is missing)
  local missing=() p
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  if [[ ${#missing[@]} -eq 0 ]]; then
    log "already installed: $*"
    return 0
  fi
  apt_lists_fresh || apt_update
  log "apt-get install ${missing[*]}"
  if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
    [[ $APT_UPDATED -eq 1 ]] && die "apt-get install failed: ${missing[*]}"
    apt_update  # lists may be outdated (404s, unknown packages): retry once
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 \
      || die "apt-get install failed: ${missing[*]}"
  fi
}

# ----------------------------------------------------- base system pkgs ----
apt_install "${BASE_PKGS[@]}"

# ------------------------------------------- ROCm oracles, in background ----
# The two ROCm chroots (scripts/setup-rocm-modern.sh) take the longest, most
# of it waiting on the network; they share nothing with the steps below (the
# chroots have apt and dpkg of their own; debootstrap came with BASE_PKGS),
# so they are built meanwhile and waited for at the end.
bash "$REPO/scripts/setup-rocm-modern.sh" &
rocm_pid=$!
wait_rocm() {  # the ROCm setup's exit status, once it has ended
  [[ -n ${rocm_pid:-} ]] || return 0
  local pid=$rocm_pid status=0
  rocm_pid=""
  wait "$pid" || status=$?
  return "$status"
}
# Whatever ends this script, the ROCm setup ends first (never left running).
trap 'wait_rocm || true' EXIT

# ------------------------------------- semantic mode: clang headers ----
# BEGIN semantic-mode (owned by hipport/parse/clang_env.py; docs/semantic-mode.md)
# PyPI's libclang 18 ships no resource headers (__clang_cuda_runtime_wrapper.h,
# stddef.h ...).  Take them from Debian: version 18 where it exists (Debian
# 13), else 16 (Debian 12 has no 18; 16 is the newest that libclang 18 reads:
# 19+ use builtins it does not know, 15 fails on CUDA 13's removed textures).
apt_lists_fresh || apt_update
clang_headers=""
for v in 18 16; do
  if pkg_installed "libclang-common-$v-dev" || has_candidate "libclang-common-$v-dev"; then
    clang_headers="libclang-common-$v-dev"; break
  fi
done
[[ -n "$clang_headers" ]] || die "neither libclang-common-18-dev nor -16-dev is available"
apt_install "$clang_headers"
# END semantic-mode

# ------------------------------------------------ Debian 13: system pkgs ----
if [[ $mode == system ]]; then
  apt_install "${EXTRA_DEV_PKGS[@]}"
  for p in "${OPTIONAL_DEV_PKGS[@]}"; do
    if pkg_installed "$p"; then continue; fi
    apt_lists_fresh || apt_update
    if has_candidate "$p"; then apt_install "$p"; else log "optional $p not available; skipped"; fi
  done
  # headers from an unpacked tree would shadow the (newer) system ones
  rm -rf "$EXTRA" "$APTDIR"
  extra_includes=""
fi

# ------------------------------------- Debian 12: unpack trixie packages ----
mirror_uri() {
  # URI of the main Debian archive the machine already uses (not -security).
  local uri=""
  if [[ -r /etc/apt/sources.list.d/debian.sources ]]; then
    uri="$(awk '
      /^[[:space:]]*$/ { if (u != "" && s ~ /(^|[[:space:]])bookworm([[:space:]]|$)/) { print u; exit } u=""; s=""; next }
      tolower($1) == "uris:"   { u=$2 }
      tolower($1) == "suites:" { s=$0 }
      END { if (u != "" && s ~ /(^|[[:space:]])bookworm([[:space:]]|$)/) print u }
    ' /etc/apt/sources.list.d/debian.sources | head -n1)"
  fi
  if [[ -z "$uri" && -r /etc/apt/sources.list ]]; then
    uri="$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /=/ && $i !~ /\]$/) { if ($(i+1) == "bookworm") { print $i; exit } break } }' \
      /etc/apt/sources.list | head -n1)"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

if [[ $mode == unpack ]]; then
  mirror="$(mirror_uri)"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [[ -r $keyring ]] || apt_install debian-archive-keyring
  want="mirror=$mirror suite=trixie pkgs=${TRIXIE_UNPACK_PKGS[*]} optional=${OPTIONAL_DEV_PKGS[*]}"
  stamp="$EXTRA/.hipport-stamp"

  if [[ "${HIPPORT_TOOLCHAIN_REFRESH:-0}" != 1 && -f "$stamp" && "$(head -n1 "$stamp")" == "$want" \
        && -f "$EXTRA/usr/include/hipblas/hipblas.h" ]]; then
    log "trixie packages already unpacked in $EXTRA"
  else
    log "fetching ${TRIXIE_UNPACK_PKGS[*]} (+ optional ${OPTIONAL_DEV_PKGS[*]}) from $mirror trixie"
    mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial" "$APTDIR/preferences.d" "$APTDIR/debs"
    echo "deb [signed-by=$keyring] $mirror trixie main" >"$APTDIR/trixie.list"
    APT_OPTS=(
      -o "Dir::Etc::sourcelist=$APTDIR/trixie.list"
      -o "Dir::Etc::sourceparts=-"
      -o "Dir::Etc::preferences=$APTDIR/preferences"
      -o "Dir::Etc::preferencesparts=$APTDIR/preferences.d"
      -o "Dir::State::Lists=$APTDIR/lists"
      -o "Dir::Cache=$APTDIR/cache"
      -o "APT::Sandbox::User=root"
      -o "Acquire::Check-Valid-Until=false"
      -o "Acquire::Languages=none"
      -o "APT::Get::List-Cleanup=true"
    )
    apt-get -q "${APT_OPTS[@]}" update >&2 || die "apt-get update of trixie lists failed"
    pkgs=("${TRIXIE_UNPACK_PKGS[@]}")
    for p in "${OPTIONAL_DEV_PKGS[@]}"; do
      c="$(apt-cache "${APT_OPTS[@]}" show --no-all-versions "$p" 2>/dev/null | awk '/^Version:/ {print $2; exit}')"
      if [[ -n "$c" ]]; then pkgs+=("$p"); else log "optional $p not in trixie; skipped"; fi
    done
    rm -f "$APTDIR"/debs/*.deb
    (cd "$APTDIR/debs" && apt-get -q "${APT_OPTS[@]}" download "${pkgs[@]}" >&2) \
      || die "apt-get download from trixie failed"
    tmp="$EXTRA.tmp.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    {
      echo "$want"
      for deb in "$APTDIR"/debs/*.deb; do
        dpkg-deb -W --showformat='${Package}=${Version}\n' "$deb"
      done
    } >"$tmp/.hipport-stamp.new"
    for deb in "$APTDIR"/debs/*.deb; do
      dpkg -x "$deb" "$tmp"
    done
    mv "$tmp/.hipport-stamp.new" "$tmp/.hipport-stamp"
    rm -rf "$EXTRA"
    mv "$tmp" "$EXTRA"
    rm -rf "$APTDIR/debs" "$APTDIR/cache" "$APTDIR/lists"  # ~20 MB, refetched on refresh
    log "unpacked into $EXTRA:"
    tail -n +2 "$EXTRA/.hipport-stamp" | sed 's/^/[setup-toolchain]   /' >&2
  fi
  [[ -f "$EXTRA/usr/include/hipblas/hipblas.h" ]] || die "hipblas headers missing after unpacking"
  extra_includes="$EXTRA/usr/include"
fi

# ------------------------------------------------- CUDA library headers ----
# nvcc (in /usr/local/cuda) ships no cuBLAS/cuRAND/cuFFT/cuSOLVER headers; they come
# in NVIDIA's PyPI wheels (~1 GB, mostly libraries).  Only their include
# folders are kept, under .toolchain/cuda-extra/include.
CUDA_EXTRA="$TC/cuda-extra"
CUDA_WHEELS=(nvidia-cublas==13.0.2.14 nvidia-curand==10.4.0.35 nvidia-cufft==12.0.0.61
             nvidia-cusolver==12.4.1.2)
cuda_stamp="${CUDA_WHEELS[*]}"
if [[ -f "$CUDA_EXTRA/.hipport-stamp" && "$(cat "$CUDA_EXTRA/.hipport-stamp")" == "$cuda_stamp" \
      && -z "${HIPPORT_TOOLCHAIN_REFRESH:-}" ]]; then
  log "CUDA library headers up to date in $CUDA_EXTRA"
else
  PY="${PYTHON:-python3}"
  wheels="$(mktemp -d)"
  log "downloading CUDA library wheels for their headers: ${CUDA_WHEELS[*]}"
  "$PY" -m pip download -q --no-deps --only-binary=:all: -d "$wheels" "${CUDA_WHEELS[@]}" \
    || die "could not download the nvidia-* wheels from PyPI"
  rm -rf "$CUDA_EXTRA.tmp"
  mkdir -p "$CUDA_EXTRA.tmp/include"
  "$PY" - "$wheels" "$CUDA_EXTRA.tmp/include" <<'PYEOF'
import pathlib, sys, zipfile
wheels, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = 0
for wheel in sorted(wheels.glob("*.whl")):
    with zipfile.ZipFile(wheel) as zf:
        for name in zf.namelist():
            parts = name.split("/")
            if "include" in parts and not name.endswith("/"):
                rel = parts[parts.index("include") + 1:]
                target = dest.joinpath(*rel)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(zf.read(name))
                count += 1
if count == 0:
    sys.exit("no headers found in the nvidia wheels")
print(f"[setup-toolchain] extracted {count} CUDA library headers", file=sys.stderr)
PYEOF
  rm -rf "$wheels"
  echo "$cuda_stamp" >"$CUDA_EXTRA.tmp/.hipport-stamp"
  rm -rf "$CUDA_EXTRA"
  mv "$CUDA_EXTRA.tmp" "$CUDA_EXTRA"
fi
[[ -f "$CUDA_EXTRA/include/cublas_v2.h" ]] || die "cublas_v2.h missing from $CUDA_EXTRA"

# ----------------------------------------------- report: headless browser ----
# BEGIN report-browser (owned by tests/report/html_browser_test.py)
# The HTML report is checked in headless Chromium (DOM, console, screenshot);
# Debian 12 and 13 both package it as `chromium`.
apt_install chromium
command -v chromium >/dev/null 2>&1 || die "chromium not on PATH after install"
# END report-browser

bash "$REPO/scripts/fetch-doctor-fixtures.sh" || die "doctor fixtures (scripts/fetch-doctor-fixtures.sh) failed"
log "waiting for the ROCm oracles (scripts/setup-rocm-modern.sh)"
wait_rocm \
  || die "the ROCm 6.4 and 7.2 oracles (scripts/setup-rocm-modern.sh) failed; its last lines say which and where its logs are"
log "ROCm oracles ready"

# --------------------------------------------------------------- env file ----
mkdir -p "$TC"
cat >"$ENVFILE.tmp" <<EOF
# Generated by scripts/setup-toolchain.sh on Debian $codename - do not edit.
# Source it:  . .toolchain/env
export HIPPORT_HIP_EXTRA_INCLUDES='$extra_includes'
export HIPPORT_CUDA_EXTRA_INCLUDES='$CUDA_EXTRA/include'
export HIP_PLATFORM=amd
EOF
mv "$ENVFILE.tmp" "$ENVFILE"
log "wrote $ENVFILE (HIPPORT_HIP_EXTRA_INCLUDES='$extra_includes')"

# ---------------------------------------------------------------- checks ----
command -v hipcc >/dev/null 2>&1 || die "hipcc not on PATH after install"
log "hipcc: $(HIP_PLATFORM=amd hipcc --version 2>/dev/null | awk '/HIP version/ {print $3; exit}')"
if command -v nvcc >/dev/null 2>&1 || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  log "nvcc: present"
else
  log "nvcc: not found (CUDA compile tests will be skipped)"
fi
log "done in $((SECONDS - start))s"
