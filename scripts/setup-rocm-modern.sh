#!/usr/bin/env bash
# setup-rocm-modern.sh - the modern ROCm oracles, each in a debootstrap chroot
# of Debian sid, next to the HIP 5.2 that setup-toolchain.sh installs from
# Debian 12.  Compile and link only.
#   6.4  Debian sid's ROCm 6.4 (hipcc 7.x on clang 21)
#   7.2  ROCm 7.2.4 from Debian experimental (hipcc 7.2 on clang 22): a sid
#        chroot whose own apt sources gain `experimental`, installed with
#        `-t experimental` (the host's apt sources are never touched)
#
# Usage:   scripts/setup-rocm-modern.sh [ORACLE...]   (as root or with sudo;
#                  setup-toolchain.sh calls it with none: both, 6.4 first)
#          scripts/setup-rocm-modern.sh --write-wrappers DIR [ORACLE]
#                  only write ORACLE's wrappers (default 6.4) into DIR,
#                  running the chroot of the cache (no root needed; the tests
#                  use it to run this checkout's wrappers without touching
#                  the cache's own)
#
# Everything goes to a machine-level cache shared by every clone and worktree,
# CACHE=${HIPPORT_TOOLCHAIN_CACHE:-/var/cache/hipport}:
#                       6.4                     7.2
#   chroot              CACHE/rocm-sid/         CACHE/rocm-7.2/root/
#   wrappers            CACHE/bin/              CACHE/rocm-7.2/bin/
#   logs of the build   CACHE/logs/             CACHE/rocm-7.2/logs/
# In each chroot, .ready exists only when it is complete (built in a
# temporary directory beside it and renamed into place), and .hipport-stamp
# holds the mirror and every package's name and version.  In each wrapper
# folder:
#   hipcc hipconfig cmake ctest make    wrappers: the chroot's tool
#   rocm-sid-run CMD [ARG...]           on host files, at the same absolute
#                                       paths (docs/toolchains.md)
#   .root                               the chroot's path, one line (for
#                                       verify's sandbox)
# A second run only checks the stamps and rewrites the wrappers (seconds).
#
# What each chroot holds:
#   * installed with apt: hipcc, libamdhip64-dev, cmake, make, g++ and the
#     hipFFT and hipRAND runtime libraries (their rocFFT and rocRAND
#     dependencies are small), so programs using them link to executables;
#     7.2 also installs libhipfftw0, which its libhipfft-dev's CMake files
#     name (without it find_package(hipfft) fails);
#   * unpacked with dpkg -x: the -dev packages of hipBLAS, hipBLASLt, hipCUB,
#     rocThrust, rocPRIM, hipFFT, hipSOLVER, hipSPARSE, hipRAND and of
#     rocBLAS, rocSPARSE, rocRAND, rocSOLVER (and RCCL, hipSPARSELt, MIOpen,
#     rocWMMA when the suite has them), plus the thin hipBLAS, hipSPARSE and
#     hipSOLVER shared objects.  Their rocBLAS, rocSPARSE and rocSOLVER
#     dependencies (GPU kernels, several GB) are not there, so GNU ld refuses
#     to link executables against them; lld links them (docs/toolchains.md).
#     7.2's librocwmma-dev (7.2.4-1~exp1) ships no rocwmma/internal/
#     headers: the build says so (log and stamp) instead of failing.
#
# Environment:
#   HIPPORT_TOOLCHAIN_CACHE=DIR    cache location (default /var/cache/hipport)
#   HIPPORT_TOOLCHAIN_REFRESH=1    rebuild the chroots from today's archive
#   CI=true                        printed in the log only; any error exits
#                                  non-zero either way
set -euo pipefail

CACHE="${HIPPORT_TOOLCHAIN_CACHE:-/var/cache/hipport}"
ORACLES=(6.4 7.2)  # what a run without arguments sets up, in this order
# Mount points for the host directories the wrappers bind (created at setup,
# so that the wrappers also work without root, in a user namespace).
BIND_DIRS=(/tmp /var/tmp /root /home /work /srv /mnt /opt /media)

# oracle_config ORACLE: set the variables that describe one oracle; every
# step below reads them, so that both chroots are built by the same code.
oracle_config() {
  ORACLE="$1"
  SUITE=sid          # what debootstrap installs
  TARGET_RELEASE=""  # apt -t: the suite the ROCm packages come from ("" = SUITE)
  # The thin shared objects the -dev packages' CMake files name, and the
  # libraries whose -dev packages are unpacked in both (issue 34 converts to
  # rocBLAS, rocSPARSE, rocRAND, rocSOLVER and MIOpen directly).
  local common_unpack=(libhipblas-dev libhipblas-common-dev libhipblaslt-dev libhipcub-dev
                       librocthrust-dev librocprim-dev libhipfft-dev libhipsolver-dev
                       libhipsparse-dev libhiprand-dev librocrand-dev librocsparse-dev
                       librocblas-dev librocsolver-dev)
  case "$ORACLE" in
    6.4)
      NAME=rocm-sid
      ROOT="$CACHE/rocm-sid"
      BIN="$CACHE/bin"
      LOGS="$CACHE/logs"
      STAMP_VERSION=2  # bump when what goes into the chroot changes (wrappers are rewritten every run)
      INSTALL_PKGS=(hipcc libamdhip64-dev cmake make g++ libhipfft0 libhiprand1)
      UNPACK_PKGS=("${common_unpack[@]}" libhipblas2 libhipsparse1 libhipsolver0)
      OPTIONAL_UNPACK_PKGS=(librccl-dev libhipsparselt-dev libmiopen-dev)
      # Recorded in the stamp beside the packages above: the compiler under hipcc.
      STAMP_PKGS=(clang-21 lld-21 rocm-device-libs-21 librocfft0 librocrand1)
      ;;
    7.2)
      NAME=rocm-7.2
      ROOT="$CACHE/rocm-7.2/root"
      BIN="$CACHE/rocm-7.2/bin"
      LOGS="$CACHE/rocm-7.2/logs"
      TARGET_RELEASE=experimental
      STAMP_VERSION=2
      INSTALL_PKGS=(hipcc libamdhip64-dev cmake make g++ libhipfft0 libhipfftw0 libhiprand1)
      # hipSOLVER 7.2's CMake files name its Fortran interface's library too.
      UNPACK_PKGS=("${common_unpack[@]}" libhipblas3 libhipsparse4 libhipsolver1
                   libhipsolver-fortran1)
      OPTIONAL_UNPACK_PKGS=(librccl-dev libhipsparselt-dev libmiopen-dev librocwmma-dev)
      STAMP_PKGS=(clang-22 lld-22 rocm-device-libs-22 librocfft0 librocrand1)
      ;;
    *) die "unknown oracle '$ORACLE' (known: ${ORACLES[*]})" ;;
  esac
}

start=$SECONDS
log() { echo "[setup-rocm-modern]${ORACLE:+ [$ORACLE]} $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
elapsed() { echo "($((SECONDS - ${1:-$start}))s)"; }


# ---------------------------------------------------------------- mirror ----
host_codename() {
  (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true
}

mirror_uri() {
  # URI of the main Debian archive the machine already uses (not -security):
  # the deb822 stanza whose Suites name this machine's release.
  local codename uri="" f
  codename="$(host_codename)"
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r $f && -n $codename ]] || continue
    uri="$(awk -v want="$codename" '
      function flush() { if (u != "" && u !~ /security/ && (" " s " ") ~ (" " want " ")) { print u; found = 1 } u = ""; s = "" }
      /^[[:space:]]*$/ { flush(); if (found) exit; next }
      tolower($1) == "uris:"   { u = $2 }
      tolower($1) == "suites:" { $1 = ""; s = $0 }
      END { if (!found) flush() }
    ' "$f" | head -n1)"
    [[ -n $uri ]] && break
  done
  if [[ -z $uri && -n $codename ]]; then
    uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk -v want="$codename" '
      $1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /=/ && $i !~ /\]$/) {
        if ($(i+1) == want && $i !~ /security/) { print $i; exit } break } }' | head -n1)"
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

# --------------------------------------------------------------- helpers ----
# Mount points below DIR (not DIR itself) in this mount namespace, deepest
# first, one a line (mountinfo writes a space as \040, a backslash as \134).
mounts_below() {
  local dir
  dir="$(realpath -m "$1")"
  awk -v d="${dir%/}/" '
    function unescape(s,   out, i) {
      out = ""
      while ((i = index(s, "\\")) > 0 && substr(s, i + 1, 3) ~ /^[0-7][0-7][0-7]$/) {
        out = out substr(s, 1, i - 1) sprintf("%c", \
          (substr(s, i + 1, 1) * 64) + (substr(s, i + 2, 1) * 8) + substr(s, i + 3, 1))
        s = substr(s, i + 4)
      }
      return out s
    }
    { p = unescape($5); if (index(p, d) == 1) print length(p) "\t" p }
  ' /proc/self/mountinfo | sort -rn | cut -f2-
}

# Detach whatever is mounted below DIR in this namespace (what a killed step
# or an older wrapper left there); deletes nothing.
detach_mounts() {
  local dir="$1" point
  while IFS= read -r point; do
    log "unmounting $point (left mounted under $dir)"
    umount -l "$point" 2>/dev/null || true
  done < <(mounts_below "$dir")
  [[ -z "$(mounts_below "$dir")" ]] || die "cannot unmount what is mounted under $dir"
}

# isolated CMD...: run CMD (as root) in mount and PID namespaces of its own.
# Its mounts never reach the caller's namespace (private propagation, checked
# even when the host's / is shared), and when it returns, fails or is killed
# (--kill-child), whatever it left running is killed and its mounts go with
# the namespace.  bash is the namespace's first process and CMD its child,
# so that CMD takes Ctrl-C and the like as it would anywhere else.
isolated() {
  unshare --mount --pid --fork --kill-child --mount-proc --propagation private -- bash -c '
    if awk '\''{ for (i = 7; i <= NF && $i != "-"; i++) if ($i ~ /^shared:/) found = 1 }
             END { exit !found }'\'' /proc/self/mountinfo; then
      echo "[setup-rocm-modern] ERROR: the new mount namespace shares its mounts; nothing mounted" >&2
      exit 125
    fi
    status=0; "$@" || status=$?; exit "$status"' isolated "$@"
}

# Run a command inside a chroot with /dev, /proc and /sys there, isolated.
in_chroot() {
  local dir="$1"; shift
  isolated bash -c '
    set -e
    dir="$1"; shift
    mount -t proc proc "$dir/proc"
    for d in /dev /sys; do mount --rbind "$d" "$dir$d"; done
    exec chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
      DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=/root "$@"
  ' in_chroot "$dir" "$@"
}

# Delete a tree, after detaching anything mounted below it: rm would go
# through a leaked bind of /tmp or /home (--one-file-system does not stop at a
# bind of the same file system).
remove_tree() {
  local dir="$1"
  [[ -e $dir ]] || return 0
  ! mountpoint -q "$dir" || die "$dir is a mount point; not deleting it"
  detach_mounts "$dir"
  rm -rf --one-file-system "$dir"
}

run_logged() {  # run_logged LOGFILE CMD...: quiet unless it fails
  local logfile="$1"; shift
  if ! "$@" >"$logfile" 2>&1; then
    tail -n 40 "$logfile" >&2
    die "failed: $* (full log: $logfile)"
  fi
}

ensure_host_tools() {
  command -v unshare >/dev/null && command -v chroot >/dev/null && command -v flock >/dev/null \
    || die "unshare, chroot and flock (util-linux, coreutils) are required"
  command -v debootstrap >/dev/null 2>&1 && return 0
  local t=$SECONDS
  log "installing debootstrap on the host"
  if ! apt-get install -y -q --no-install-recommends debootstrap >&2; then
    apt-get update -q >&2 || die "apt-get update failed"
    apt-get install -y -q --no-install-recommends debootstrap >&2 \
      || die "apt-get install debootstrap failed"
  fi
  log "debootstrap installed $(elapsed "$t")"
}

# ---------------------------------------------------------------- build ----
run_debootstrap() {  # run_debootstrap DIR MIRROR
  local dir="$1" mirror="$2" t=$SECONDS include=()
  [[ $mirror == https:* ]] && include=(--include=ca-certificates)
  log "debootstrap --variant=minbase $SUITE $mirror (a minute or two)"
  mkdir -p "$(dirname "$dir")"
  run_logged "$LOGS/debootstrap.log" \
    isolated debootstrap --variant=minbase "${include[@]}" "$SUITE" "$dir" "$mirror"
  log "debootstrap done $(elapsed "$t")"
}

build_chroot() {  # build_chroot DIR MIRROR STAMPLINE
  local dir="$1" mirror="$2" want="$3" t
  local aptopts=(-q -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)

  run_debootstrap "$dir" "$mirror"
  if [[ -n $TARGET_RELEASE ]]; then
    # Only the chroot's apt knows the extra suite; -t makes its packages the
    # candidates where it has them.
    log "adding $TARGET_RELEASE to the chroot's apt sources"
    printf 'deb %s %s main\n' "$mirror" "$TARGET_RELEASE" \
      >"$dir/etc/apt/sources.list.d/hipport-$TARGET_RELEASE.list"
    aptopts+=(-t "$TARGET_RELEASE")
  fi

  t=$SECONDS
  log "apt-get update in the chroot"
  # sid's Release file can be older than its Valid-Until window on a mirror
  # snapshot; the signature is still checked.
  run_logged "$LOGS/apt-update.log" in_chroot "$dir" apt-get "${aptopts[@]}" update
  log "apt-get update done $(elapsed "$t")"

  t=$SECONDS
  log "apt-get install ${INSTALL_PKGS[*]}"
  run_logged "$LOGS/apt-install.log" in_chroot "$dir" \
    apt-get "${aptopts[@]}" install -y --no-install-recommends "${INSTALL_PKGS[@]}"
  in_chroot "$dir" apt-get clean
  log "apt-get install done $(elapsed "$t")"

  t=$SECONDS
  local pkgs=("${UNPACK_PKGS[@]}") p
  for p in "${OPTIONAL_UNPACK_PKGS[@]}"; do
    if [[ -n "$(in_chroot "$dir" apt-cache show --no-all-versions "$p" 2>/dev/null)" ]]; then
      pkgs+=("$p")
    else
      log "optional $p is not in $SUITE; skipped"
    fi
  done
  log "apt-get download + dpkg -x ${pkgs[*]}"
  local debs=/var/tmp/hipport-debs
  mkdir -p "$dir$debs"
  run_logged "$LOGS/apt-download.log" in_chroot "$dir" \
    bash -c 'cd "$1" && shift && apt-get "$@"' _ "$debs" "${aptopts[@]}" download "${pkgs[@]}"
  # dpkg -x inside the chroot: sid's dpkg reads whatever compression sid uses.
  run_logged "$LOGS/dpkg-x.log" in_chroot "$dir" \
    bash -c 'set -e; for deb in "$1"/*.deb; do dpkg -x "$deb" /; done' _ "$debs"
  log "unpacked $(ls "$dir$debs" | wc -l) packages $(elapsed "$t")"

  {
    echo "$want"
    in_chroot "$dir" dpkg-query -W -f='installed ${Package}=${Version}\n' \
      "${INSTALL_PKGS[@]}" "${STAMP_PKGS[@]}"
    for deb in "$dir$debs"/*.deb; do
      dpkg-deb -W --showformat='unpacked ${Package}=${Version}\n' "$deb"
    done
    check_rocwmma "$dir"
  } >"$dir/.hipport-stamp"
  rm -rf "$dir$debs"

  for p in "${BIND_DIRS[@]}"; do mkdir -p "$dir$p"; done
  smoke_test "$dir"
}

# A librocwmma-dev without rocwmma/internal/ (7.2.4-1~exp1) cannot be
# compiled against: rocwmma.hpp includes headers that are not there.  Say so
# (log, and a `note` line in the stamp that doctor and the docs refer to).
check_rocwmma() {  # check_rocwmma DIR: prints the stamp's note line, if any
  local dir="$1"
  [[ -f $dir/usr/include/rocwmma/rocwmma.hpp ]] || return 0
  [[ -d $dir/usr/include/rocwmma/internal ]] && return 0
  log "NOTE: librocwmma-dev ships no rocwmma/internal/ headers: rocWMMA cannot be compiled against in this oracle"
  echo "note rocwmma-incomplete: librocwmma-dev ships no rocwmma/internal/ headers"
}

# Compile and link one HIP program (with hipFFT and hipRAND) and compile one
# that includes every library header: the oracle must work before it is
# marked ready.
smoke_test() {
  local dir="$1" t=$SECONDS src=/var/tmp/hipport-smoke
  mkdir -p "$dir$src"
  cat >"$dir$src/link.hip" <<'EOF'
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
int main() {
  float* x = nullptr;
  if (hipMalloc(&x, 64 * sizeof(float)) != hipSuccess) return 1;
  scale<<<1, 64>>>(x, 2.0f, 64);
  hipfftHandle plan;
  hiprandGenerator_t gen;
  int ok = hipfftPlan1d(&plan, 64, HIPFFT_C2C, 1) == HIPFFT_SUCCESS
        && hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT) == HIPRAND_STATUS_SUCCESS;
  return ok ? 0 : 1;
}
EOF
  cat >"$dir$src/headers.hip" <<'EOF'
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipblaslt/hipblaslt.h>
#include <hipcub/hipcub.hpp>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>
#include <thrust/device_vector.h>
#include <rocblas/rocblas.h>
#include <rocrand/rocrand.h>
#include <rocsolver/rocsolver.h>
#include <rocsparse/rocsparse.h>
#if __has_include(<miopen/miopen.h>)
#include <miopen/miopen.h>
#endif
int main() { return 0; }
EOF
  # What a converted project's CMakeLists.txt asks for: each package's CMake
  # files must name only files that are there (7.2's hipFFT and hipSOLVER
  # name libhipfftw and libhipsolver_fortran).
  cat >"$dir$src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(smoke LANGUAGES CXX HIP)
foreach(package hip hipblas hipfft hiprand hipsparse hipsolver hipcub rocthrust rocprim rocrand)
  find_package(${package} REQUIRED)
endforeach()
EOF
  log "smoke test: hipcc builds an executable (hipFFT, hipRAND) and reads every library header; CMake finds every hip* package"
  run_logged "$LOGS/smoke.log" in_chroot "$dir" bash -c '
    set -e; cd "$1"
    hipcc --offload-arch=gfx90a -x hip link.hip -o link -lhipfft -lhiprand
    hipcc --offload-arch=gfx942 -std=c++17 -fsyntax-only -x hip headers.hip
    cmake -S . -B build -DCMAKE_HIP_ARCHITECTURES=gfx90a' _ "$src"
  [[ -x "$dir$src/link" ]] || die "smoke test built no executable"
  rm -rf "$dir$src"
  log "smoke test passed $(elapsed "$t")"
}

# -------------------------------------------------------------- wrappers ----
write_file() {  # write_file PATH MODE < content (atomic)
  local path="$1" mode="$2"
  cat >"$path.tmp.$$"
  chmod "$mode" "$path.tmp.$$"
  mv -f "$path.tmp.$$" "$path"
}

write_wrappers() {  # write_wrappers BINDIR CHROOT: the wrappers in BINDIR run CHROOT's tools
  local bin="$1" root="$2"
  mkdir -p "$bin"
  # The runner: an outer part that enters a private mount namespace, and an
  # inner part (enter, run by unshare as `bash -c`: no argument of the runner
  # reaches it) that binds the host's user directories into the chroot at the
  # same paths, then chroots and execs the tool with the same cwd and argv.
  # exec all the way: exit status, signals and stdio are the tool's own.
  sed -e "s|@ROOT@|$root|g" \
      -e "s|@BIND_DIRS@|${BIND_DIRS[*]}|g" <<'EOF' | write_file "$bin/rocm-sid-run" 755
#!/bin/bash
# rocm-sid-run CMD [ARG...] - run CMD from the ROCm chroot @ROOT@
# on host files at the same absolute paths.  Generated by
# scripts/setup-rocm-modern.sh (hipport); do not edit.
#
# Bound into the chroot: @BIND_DIRS@ (those that exist), the current
# directory, $HOME, $TMPDIR and the directories listed in
# HIPPORT_ROCM_SID_BIND (colon separated).  A directory the chroot has itself
# (e.g. /usr/include) is never shadowed.  Everything is mounted in a mount
# namespace of the call's own, whose mounts propagate nowhere: the caller's
# namespace never sees them, and they go when the last process in it exits.
set -euo pipefail
root='@ROOT@'

die() { echo "rocm-sid-run: $*" >&2; exit 125; }

covered() {  # covered PATH: PATH is at or under an already bound directory
  local p="$1" b
  for b in "${bound[@]}"; do
    [[ $p == "$b" || $p == "$b"/* ]] && return 0
  done
  return 1
}

enter() {  # enter OUTER_NAMESPACE CMD [ARG...]
  local outer="$1" d p
  shift
  # Mount nothing unless this is a new mount namespace whose mounts are
  # shared with no other: every bind below would outlive the call otherwise.
  [[ $(readlink /proc/self/ns/mnt) != "$outer" ]] \
    || die "unshare made no new mount namespace; nothing mounted"
  if awk '{ for (i = 7; i <= NF && $i != "-"; i++) if ($i ~ /^shared:/) found = 1 }
          END { exit !found }' /proc/self/mountinfo; then
    die "the new mount namespace shares its mounts (unshare --propagation private did not apply); nothing mounted"
  fi
  for d in /dev /proc /sys; do mount --rbind "$d" "$root$d"; done
  bound=()
  for d in @BIND_DIRS@; do
    [[ -d $d ]] || continue
    [[ -d $root$d ]] || mkdir -p "$root$d" 2>/dev/null || continue
    mount --rbind "$d" "$root$d"
    bound+=("$d" "$(realpath -e "$d")")
  done
  # The chroot's /opt must not show a host ROCm (e.g. /opt/rocm/bin/hipcc).
  for d in "$root"/opt/rocm*; do
    [[ -d $d ]] && mount -t tmpfs -o ro,size=4k,mode=755 hipport-hidden "$d"
  done
  local cwd extra=()
  cwd="$(pwd -P)"
  extra+=("$cwd")
  [[ -n ${HOME:-} ]] && extra+=("$HOME")
  [[ -n ${TMPDIR:-} ]] && extra+=("$TMPDIR")
  if [[ -n ${HIPPORT_ROCM_SID_BIND:-} ]]; then
    IFS=: read -r -a more <<<"$HIPPORT_ROCM_SID_BIND"
    extra+=("${more[@]}")
  fi
  for d in "${extra[@]}"; do
    [[ -n $d ]] || continue
    p="$(realpath -e "$d" 2>/dev/null)" || continue
    [[ -d $p ]] || continue
    covered "$p" && continue
    if [[ -e $root$p && -n "$(ls -A "$root$p" 2>/dev/null)" ]]; then
      [[ $p == "$cwd" ]] && die "cannot run in $cwd: the chroot has its own $p"
      continue
    fi
    mkdir -p "$root$p" || die "cannot create the mount point $root$p"
    mount --rbind "$p" "$root$p"
    bound+=("$p")
  done
  unset LD_LIBRARY_PATH LD_PRELOAD LD_AUDIT PYTHONHOME PYTHONPATH PYTHONSTARTUP \
        VIRTUAL_ENV PERL5LIB
  export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  export HIP_PLATFORM="${HIP_PLATFORM:-amd}" PWD="$cwd"
  exec chroot "$root" /usr/bin/env -C "$cwd" -- "$@"
}

[[ $# -gt 0 ]] || { echo "usage: rocm-sid-run CMD [ARG...]" >&2; exit 2; }
[[ -f $root/.ready ]] \
  || die "$root is not set up; run scripts/setup-rocm-modern.sh (as root)"
outer="$(readlink /proc/self/ns/mnt)" || die "cannot read /proc/self/ns/mnt"
inner="set -euo pipefail; $(declare -p root); $(declare -f die covered enter); enter \"\$@\""
user=()
[[ $EUID -eq 0 ]] || user=(--user --map-root-user)
exec unshare "${user[@]}" --mount --propagation private -- \
  "$BASH" -c "$inner" rocm-sid-run "$outer" "$@"
EOF
  local tool
  for tool in hipcc hipconfig cmake ctest make; do
    printf '#!/bin/sh\n# %s from the ROCm chroot %s (scripts/setup-rocm-modern.sh)\nexec %q %s "$@"\n' \
      "$tool" "$root" "$bin/rocm-sid-run" "$tool" | write_file "$bin/$tool" 755
  done
  # The chroot these wrappers run, for programs that enter it themselves
  # (verify's sandbox mounts it as the root of the build: docs/verify.md).
  printf '%s\n' "$root" | write_file "$bin/.root" 644
}

# ----------------------------------------------------------------- setup ----
# setup_oracle: build the chroot of the configured oracle unless its stamp
# says it is up to date, then write its wrappers and print its versions.
setup_oracle() {
  local mirror want tmp stale hip_version clang_version hipcc_pkg t=$SECONDS
  mkdir -p "$LOGS"
  # The wrappers and the steps below mount only in namespaces of their own:
  # anything mounted in the chroot here is a leftover (of an older wrapper).
  [[ -d $ROOT ]] && detach_mounts "$ROOT"

  mirror="$(mirror_uri)"
  want="hipport-$NAME/$STAMP_VERSION mirror=$mirror suite=$SUITE"
  [[ -n $TARGET_RELEASE ]] && want+=" target=$TARGET_RELEASE"
  want+=" install=${INSTALL_PKGS[*]} unpack=${UNPACK_PKGS[*]} optional=${OPTIONAL_UNPACK_PKGS[*]}"

  if [[ "${HIPPORT_TOOLCHAIN_REFRESH:-0}" != 1 && -f $ROOT/.ready && -f $ROOT/.hipport-stamp \
        && "$(head -n1 "$ROOT/.hipport-stamp")" == "$want" \
        && -x $ROOT/usr/bin/hipcc && -f $ROOT/usr/include/hipblas/hipblas.h ]]; then
    log "chroot up to date in $ROOT"
    local note
    while IFS= read -r note; do
      log "NOTE: ${note#note }"
    done < <(grep '^note ' "$ROOT/.hipport-stamp" || true)
  else
    ensure_host_tools
    for stale in "$ROOT".tmp.* "$ROOT".old.*; do
      [[ -e $stale ]] && { log "removing leftover $stale"; remove_tree "$stale"; }
    done
    tmp="$ROOT.tmp.$$"
    # A failed build leaves no half chroot behind (its logs stay in $LOGS).
    BUILDING="$tmp"
    log "building the ROCm $ORACLE chroot in $tmp (logs: $LOGS)"
    build_chroot "$tmp" "$mirror" "$want"
    touch "$tmp/.ready"
    if [[ -e $ROOT ]]; then
      mv "$ROOT" "$ROOT.old.$$"
    fi
    mv "$tmp" "$ROOT"
    BUILDING=""
    remove_tree "$ROOT.old.$$"
    log "chroot ready in $ROOT $(elapsed "$t"), $(du -sh --one-file-system "$ROOT" | cut -f1)"
    tail -n +2 "$ROOT/.hipport-stamp" | sed "s/^/[setup-rocm-modern] [$ORACLE]   /" >&2
  fi
  write_wrappers "$BIN" "$ROOT"

  hip_version="$("$BIN/hipcc" --version 2>&1 | awk '/HIP version/ {print $3; exit}')"
  clang_version="$("$BIN/hipcc" --version 2>&1 | awk '/clang version/ {print $4; exit}')"
  hipcc_pkg="$(awk -F= '$1 == "installed hipcc" {print $2}' "$ROOT/.hipport-stamp")"
  [[ -n $hip_version && -n $clang_version ]] || die "$BIN/hipcc --version failed"
  log "hipcc $hipcc_pkg, HIP $hip_version, clang $clang_version: $BIN/hipcc"
}

# On any exit while a chroot is being built: delete the half-built chroot and
# say which oracle failed (setup-toolchain.sh fails with it).
BUILDING=""
on_exit() {
  local status=$?
  if [[ -n $BUILDING ]]; then
    remove_tree "$BUILDING" || true
    log "ERROR: the ROCm ${ORACLE:-?} chroot was not built (exit $status); logs in ${LOGS:-$CACHE}"
  fi
  exit "$status"
}

# ------------------------------------------------------------------ main ----
main() {
  if [[ ${1:-} == --write-wrappers ]]; then
    [[ $# -eq 2 || $# -eq 3 ]] || die "usage: $0 --write-wrappers DIR [ORACLE]"
    oracle_config "${3:-6.4}"
    write_wrappers "$2" "$ROOT"
    return
  fi
  local oracles=("$@") oracle
  [[ $# -gt 0 ]] || oracles=("${ORACLES[@]}")
  for oracle in "${oracles[@]}"; do
    [[ $oracle != -* ]] || die "unknown argument $oracle (see the usage at the top of $0)"
    oracle_config "$oracle"
  done
  ORACLE=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "must run as root (or with sudo available)"
    exec sudo --preserve-env=HIPPORT_TOOLCHAIN_CACHE,HIPPORT_TOOLCHAIN_REFRESH,CI \
      bash "${BASH_SOURCE[0]}" "$@"
  fi
  export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

  log "cache: $CACHE (CI=${CI:-}), oracles: ${oracles[*]}"
  mkdir -p "$CACHE"
  exec 9>"$CACHE/.rocm-sid.lock"
  if ! flock -n 9; then
    log "another setup holds $CACHE/.rocm-sid.lock; waiting"
    flock 9
  fi
  trap on_exit EXIT
  for oracle in "${oracles[@]}"; do
    oracle_config "$oracle"
    setup_oracle
  done
  ORACLE=""
  log "done in $((SECONDS - start))s"
}

# Sourced (by the tests), it only defines the functions above.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
