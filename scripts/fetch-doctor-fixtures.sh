#!/usr/bin/env bash
# fetch-doctor-fixtures.sh - real ROCm file layouts for the `hipport doctor` tests.
#
# Usage:   scripts/fetch-doctor-fixtures.sh        (no arguments; needs network
#                                                  access to the Debian archive)
#
# For each Debian suite (bookworm = 12, trixie = 13, sid) it downloads the
# ROCm -dev packages that exist there with a private apt state (the system's
# apt configuration and package database are never touched) and unpacks them
# with `dpkg -x` into
#
#     .toolchain/doctor-roots/<suite>/          (so the ROCm root is <suite>/usr)
#
# plus <suite>/var/lib/dpkg/status listing them, as dpkg would.
# Nothing is installed.  A package a suite does not have is skipped and logged
# (hipBLASLt exists only in sid, hipBLAS from trixie on).  Two runtime
# packages are deliberately left out because of their size: librccl1 (120 MB),
# libhipblaslt1 (155 MB) and librocrand1 (130 MB in sid); their -dev packages' libfoo.so symlinks dangle,
# which is a layout doctor must diagnose anyway.
#
# Idempotent: each suite has a stamp file (.hipport-stamp: the request on the
# first line, then package=version lines); when it matches, that suite is not
# fetched again.  HIPPORT_TOOLCHAIN_REFRESH=1 refetches.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOTS="$REPO/.toolchain/doctor-roots"
SUITES=(bookworm trixie sid)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# Headers, CMake packages, version files (the -dev packages) ...
DEV_PKGS=(hipcc libamdhip64-dev rocm-cmake
          libhipblas-dev libhipblas-common-dev libhipblaslt-dev libhipfft-dev
          libhiprand-dev librocrand-dev libhipsparse-dev libhipsolver-dev
          libhipcub-dev librocthrust-dev librocprim-dev librccl-dev libmiopen-dev)
# ... and the shared libraries their libfoo.so symlinks point to (small ones
# only; `a|b`: the first that the suite has, as the soname moved).
RUNTIME_PKGS=("libamdhip64-6|libamdhip64-5" "libhipblas2|libhipblas0" libhipfft0
              libhiprand1 "libhipsparse1|libhipsparse0" libhipsolver0 libmiopen1)

log() { echo "[doctor-fixtures] $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

mirror_uri() {
  # The Debian archive the machine already uses (its first non-security URI).
  local uri=""
  if [[ -r /etc/apt/sources.list.d/debian.sources ]]; then
    uri="$(awk 'tolower($1) == "uris:" && $2 !~ /security/ { print $2; exit }' \
      /etc/apt/sources.list.d/debian.sources)"
  fi
  if [[ -z "$uri" && -r /etc/apt/sources.list ]]; then
    uri="$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {
      if ($i !~ /security/) { print $i; exit } break } }' /etc/apt/sources.list)"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

[[ -r $KEYRING ]] || die "$KEYRING missing (apt-get install debian-archive-keyring)"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (this script needs Debian)"
mirror="$(mirror_uri)"
start=$SECONDS

fetch_suite() {
  local suite=$1 dest="$ROOTS/$1" apt="$ROOTS/.apt-$1"
  local want="layout=2 mirror=$mirror suite=$suite pkgs=${DEV_PKGS[*]} ${RUNTIME_PKGS[*]}"
  if [[ "${HIPPORT_TOOLCHAIN_REFRESH:-0}" != 1 && -f "$dest/.hipport-stamp" \
        && "$(head -n1 "$dest/.hipport-stamp")" == "$want" ]]; then
    log "$suite: up to date in $dest"
    return 0
  fi
  log "$suite: fetching from $mirror"
  rm -rf "$apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/preferences.d" "$apt/debs"
  echo "deb [signed-by=$KEYRING] $mirror $suite main" >"$apt/sources.list"
  local opts=(
    -o "Dir::Etc::sourcelist=$apt/sources.list"
    -o "Dir::Etc::sourceparts=-"
    -o "Dir::Etc::preferences=$apt/preferences"
    -o "Dir::Etc::preferencesparts=$apt/preferences.d"
    -o "Dir::State::Lists=$apt/lists"
    -o "Dir::State::status=/dev/null"
    -o "Dir::Cache=$apt/cache"
    -o "APT::Sandbox::User=root"
    -o "Acquire::Check-Valid-Until=false"
    -o "Acquire::Languages=none"
  )
  apt-get -q "${opts[@]}" update >&2 || die "$suite: apt-get update failed"
  # One apt-cache call per suite (each call rebuilds the package cache: ~4 s).
  local known pkgs=() names=() p alt found
  for p in "${DEV_PKGS[@]}" "${RUNTIME_PKGS[@]}"; do names+=(${p//|/ }); done
  known=" $(apt-cache "${opts[@]}" show --no-all-versions "${names[@]}" 2>/dev/null \
    | awk '/^Package:/ { printf "%s ", $2 }')"
  for p in "${DEV_PKGS[@]}" "${RUNTIME_PKGS[@]}"; do
    found=""
    for alt in ${p//|/ }; do
      if [[ $known == *" $alt "* ]]; then found=$alt; break; fi
    done
    if [[ -n $found ]]; then pkgs+=("$found"); else log "$suite: no package $p; skipped"; fi
  done
  (cd "$apt/debs" && apt-get -q "${opts[@]}" download "${pkgs[@]}" >&2) \
    || die "$suite: apt-get download failed"
  local tmp="$dest.tmp.$$" deb
  rm -rf "$tmp"
  mkdir -p "$tmp"
  for deb in "$apt"/debs/*.deb; do
    dpkg -x "$deb" "$tmp"
  done
  {
    echo "$want"
    for deb in "$apt"/debs/*.deb; do
      dpkg-deb -W --showformat='${Package}=${Version}\n' "$deb"
    done
  } >"$tmp/.hipport-stamp"
  # A dpkg status file for the unpacked packages (as if installed), in dpkg's
  # own format: doctor reads package versions from <prefix>/var/lib/dpkg/status.
  mkdir -p "$tmp/var/lib/dpkg"
  for deb in "$apt"/debs/*.deb; do
    echo "Package: $(dpkg-deb -f "$deb" Package)"
    echo "Status: install ok installed"
    dpkg-deb -f "$deb" Source Version Architecture Depends
    echo
  done >"$tmp/var/lib/dpkg/status"
  rm -rf "$dest" "$apt"
  mv "$tmp" "$dest"
  log "$suite: unpacked $(($(wc -l <"$dest/.hipport-stamp") - 1)) packages into $dest"
}

mkdir -p "$ROOTS"
for suite in "${SUITES[@]}"; do
  fetch_suite "$suite"
done
[[ -f "$ROOTS/bookworm/usr/include/hip/hip_version.h" ]] || die "bookworm root incomplete"

# A CPU build of PyTorch for doctor's framework probe, only from a wheel that
# lies on this machine's disk (never a download of several GB of CUDA wheels).
TORCH_VENV="$REPO/.toolchain/torch-venv"
PY="${PYTHON:-python3}"
tag="cp$("$PY" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')"
wheel="$(ls /opt/wheels/torch-*+cpu-"$tag"-"$tag"-*.whl 2>/dev/null | sort | tail -n 1 || true)"
if [[ -x "$TORCH_VENV/bin/python" ]] && "$TORCH_VENV/bin/python" -c "import torch" 2>/dev/null; then
  log "CPU PyTorch already in $TORCH_VENV"
elif [[ -n "$wheel" ]]; then
  log "installing the local CPU PyTorch wheel $(basename "$wheel") into $TORCH_VENV"
  rm -rf "$TORCH_VENV"
  "$PY" -m venv "$TORCH_VENV"
  "$TORCH_VENV/bin/pip" install -q --disable-pip-version-check "$wheel" 2>&1 \
    | grep -v "^WARNING: Location" >&2 || true
  "$TORCH_VENV/bin/python" -c "import torch" 2>/dev/null || die "PyTorch did not install"
else
  log "no local CPU PyTorch wheel for $tag in /opt/wheels: the real-torch doctor test skips"
fi
log "done in $((SECONDS - start))s"
