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
#                  setup-toolchain.sh calls it with none: both, built at
#                  the same time)
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
# temporary directory beside it and renamed into place; the previous one is
# deleted once no process runs in it), and .hipport-stamp holds the mirror
# and every package's name and version.  In each wrapper
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
#     hipSOLVER shared objects;
#   * the shared objects alone (lib*.so*, not the GPU kernel files beside
#     them) of the runtime packages whose libraries those -dev packages'
#     CMake files and libfoo.so links name: hipBLASLt, rocBLAS, rocSOLVER,
#     rocSPARSE (and RCCL, hipSPARSELt, MIOpen with their -dev packages).
#     Their own dependencies (roctx, rocm-smi, boost...) are not there, so
#     GNU ld refuses to link executables against them; lld links them
#     (docs/toolchains.md).  Then every file each CMake package's imported
#     targets name, and every libfoo.so link, must exist, or the build fails
#     naming them (6.4's hipBLASLt names a liborigami.a no sid package ships:
#     an empty archive stands in, said in the log and the stamp).
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
  declare -gA OPTIONAL_RUNTIME=()
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
      RUNTIME_PKGS=(libhipblaslt1 librocblas4 librocsolver0 librocsparse1)
      OPTIONAL_RUNTIME=([librccl-dev]=librccl1 [libhipsparselt-dev]=libhipsparselt0
                        [libmiopen-dev]=libmiopen1)
      # sid's libhipblaslt-dev 7.1.1+dfsg-4 names roc::origami's static
      # library and no sid package ships it (7.2's libhipblaslt-dev does).
      PLACEHOLDER_ARCHIVES=(/usr/lib/x86_64-linux-gnu/liborigami.a)
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
      RUNTIME_PKGS=(libhipblaslt1 librocblas5 librocsolver0 librocsparse1)
      OPTIONAL_RUNTIME=([librccl-dev]=librccl1 [libhipsparselt-dev]=libhipsparselt0
                        [libmiopen-dev]=libmiopen1)
      PLACEHOLDER_ARCHIVES=()
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

build_chroot() {  # build_chroot DIR MIRROR STAMPLINE RUNTIME_STAMPLINE
  local dir="$1" mirror="$2" want="$3" runtime_want="$4" t
  APTOPTS=(-q -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)

  run_debootstrap "$dir" "$mirror"
  if [[ -n $TARGET_RELEASE ]]; then
    # Only the chroot's apt knows the extra suite; -t makes its packages the
    # candidates where it has them.
    log "adding $TARGET_RELEASE to the chroot's apt sources"
    printf 'deb %s %s main\n' "$mirror" "$TARGET_RELEASE" \
      >"$dir/etc/apt/sources.list.d/hipport-$TARGET_RELEASE.list"
    APTOPTS+=(-t "$TARGET_RELEASE")
  fi

  t=$SECONDS
  log "apt-get update in the chroot"
  # sid's Release file can be older than its Valid-Until window on a mirror
  # snapshot; the signature is still checked.
  run_logged "$LOGS/apt-update.log" in_chroot "$dir" apt-get "${APTOPTS[@]}" update
  log "apt-get update done $(elapsed "$t")"

  local pkgs=("${UNPACK_PKGS[@]}") runtime=("${RUNTIME_PKGS[@]}") p
  for p in "${OPTIONAL_UNPACK_PKGS[@]}"; do
    if [[ -n "$(in_chroot "$dir" apt-cache show --no-all-versions "$p" 2>/dev/null)" ]]; then
      pkgs+=("$p")
      [[ -n ${OPTIONAL_RUNTIME[$p]:-} ]] && runtime+=("${OPTIONAL_RUNTIME[$p]}")
    else
      log "optional $p is not in $SUITE; skipped"
    fi
  done

  # The runtime libraries are most of the download (about 1.5 GB for 6.4,
  # 2 GB for 7.2, GPU kernels mostly): fetched while apt-get installs the
  # compiler, one connection per package.
  t=$SECONDS
  local debs=/var/tmp/hipport-debs rdebs=/var/tmp/hipport-runtime-debs fetch
  mkdir -p "$dir$debs" "$dir$rdebs"
  log "apt-get download ${runtime[*]} (in the background)"
  download_debs "$dir" "$rdebs" "$LOGS/apt-download-runtime.log" "${runtime[@]}" &
  fetch=$!

  local ti=$SECONDS
  log "apt-get install ${INSTALL_PKGS[*]}"
  run_logged "$LOGS/apt-install.log" in_chroot "$dir" \
    apt-get "${APTOPTS[@]}" install -y --no-install-recommends "${INSTALL_PKGS[@]}"
  log "apt-get install done $(elapsed "$ti")"

  ti=$SECONDS
  log "apt-get download + dpkg -x ${pkgs[*]}"
  # One apt-get for these small ones: each apt-get run reads the package
  # lists (seconds of CPU).
  run_logged "$LOGS/apt-download.log" in_chroot "$dir" \
    bash -c 'cd "$1" && shift && apt-get "$@"' _ "$debs" "${APTOPTS[@]}" download "${pkgs[@]}"
  # dpkg -x inside the chroot: sid's dpkg reads whatever compression sid uses.
  run_logged "$LOGS/dpkg-x.log" in_chroot "$dir" \
    bash -c 'set -e; for deb in "$1"/*.deb; do dpkg -x "$deb" /; done' _ "$debs"
  log "unpacked $(ls "$dir$debs" | wc -l) packages $(elapsed "$ti")"

  wait "$fetch" || die "apt-get download of the runtime libraries failed (log: $LOGS/apt-download-runtime.log)"
  log "runtime libraries downloaded $(elapsed "$t"): $(du -sh "$dir$rdebs" | cut -f1)"
  # Only the shared objects: the GPU kernel files beside them
  # (rocblas/library/, hipblaslt/library/: GBs) are loaded at run time, which
  # no oracle does.  tar stops reading once it has them (--occurrence; the
  # names come from the package's md5sums): rocBLAS puts its library first
  # and its kernels after (4 GB for 6.4).  ldconfig -n then makes the soname
  # links the packages also ship.
  ti=$SECONDS
  run_logged "$LOGS/dpkg-x-runtime.log" in_chroot "$dir" bash -c '
    set -e
    for deb in "$1"/*.deb; do
      mapfile -t names < <(dpkg-deb -I "$deb" md5sums \
        | awk "{ print \"./\" \$2 }" | grep -E "^\./usr/lib/[^/]+/lib[^/]*\.so")
      [[ ${#names[@]} -gt 0 ]] || { echo "no shared object in $deb" >&2; exit 1; }
      # The status of tar, which found every file (dpkg-deb, whose pipe tar
      # closes early, ends on SIGPIPE).
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C / --occurrence "${names[@]}" \
        || { echo "tar failed on $deb" >&2; exit 1; }
      for name in "${names[@]}"; do [[ -f /$name ]] || { echo "$name missing" >&2; exit 1; }; done
      echo "$deb: ${names[*]}"
    done
    ldconfig -n /usr/lib/x86_64-linux-gnu' _ "$rdebs"
  log "unpacked the shared objects of $(ls "$dir$rdebs" | wc -l) runtime packages $(elapsed "$ti")"
  # Only now: `apt-get clean` also drops the package cache every apt-get run
  # above reads (each would rebuild it).
  in_chroot "$dir" apt-get clean

  local notes=() archive
  for archive in "${PLACEHOLDER_ARCHIVES[@]}"; do
    [[ -e $dir$archive ]] && continue
    # An empty archive: CMake's import check passes, and a program that
    # really links its target finds none of its symbols (a link error).
    printf '!<arch>\n' >"$dir$archive"
    log "NOTE: no package ships $archive, which a CMake package names: an empty archive stands in"
    notes+=("note placeholder $archive: empty archive (no package ships it; a CMake package names it)")
  done
  check_cmake_imports "$dir"

  {
    echo "$want"
    echo "$runtime_want"
    in_chroot "$dir" dpkg-query -W -f='installed ${Package}=${Version}\n' \
      "${INSTALL_PKGS[@]}" "${STAMP_PKGS[@]}"
    for deb in "$dir$debs"/*.deb; do
      dpkg-deb -W --showformat='unpacked ${Package}=${Version}\n' "$deb"
    done
    for deb in "$dir$rdebs"/*.deb; do
      dpkg-deb -W --showformat='shared-objects ${Package}=${Version}\n' "$deb"
    done
    check_rocwmma "$dir"
    [[ ${#notes[@]} -eq 0 ]] || printf '%s\n' "${notes[@]}"
  } >"$dir/.hipport-stamp"
  rm -rf "$dir$debs" "$dir$rdebs"

  for p in "${BIND_DIRS[@]}"; do mkdir -p "$dir$p"; done
  smoke_test "$dir"
}

# download_debs DIR DEST LOG PKG...: apt-get download each PKG into DEST (a
# path in the chroot DIR), all at once: one connection per package (apt
# fetches one file at a time per host; this is for the large ones).  apt
# checks each file's hash.
download_debs() {
  local dir="$1" dest="$2" logfile="$3"
  shift 3
  run_logged "$logfile" in_chroot "$dir" bash -c '
    cd "$1"; n="$2"; shift 2; opts=("${@:1:n}"); shift "$n"
    pids=()
    for p in "$@"; do apt-get "${opts[@]}" download "$p" & pids+=($!); done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    exit "$status"' _ "$dest" "${#APTOPTS[@]}" "${APTOPTS[@]}" "$@"
}

# The files the CMake packages in the chroot DIR name that are not there,
# one a line ("TARGETS-FILE: PATH"), and the dangling lib*.so links of the
# -dev packages ("dangling LINK"): what `find_package` or `-lNAME` stop at.
# CMake's own check, read statically: each export's <name>-targets-<config>
# files list `_cmake_import_check_files_for_<target>` paths under
# ${_IMPORT_PREFIX}, which its <name>-targets.cmake sets to the folder of
# the file, raised once per `get_filename_component(... PATH)` after it.
cmake_import_gaps() {  # run inside the chroot: cmake_import_gaps
  local main prefix ups i config path link
  for main in /usr/lib/*-linux-gnu/cmake/*/*[Tt]argets.cmake; do
    [[ -f $main ]] || continue
    ups="$(grep -c 'get_filename_component(_IMPORT_PREFIX "${_IMPORT_PREFIX}" PATH)' "$main" || true)"
    prefix="$(dirname "$main")"
    for ((i = 0; i < ups; i++)); do prefix="$(dirname "$prefix")"; done
    [[ $prefix == / ]] && prefix=""
    for config in "${main%.cmake}"-*.cmake; do
      [[ -f $config ]] || continue
      while IFS= read -r path; do
        path="${path//\$\{_IMPORT_PREFIX\}/$prefix}"
        [[ -e $path ]] || echo "$config: $path"
      done < <(sed -n 's/^list(APPEND _cmake_import_check_files_for_[^ ]* \(.*\) )$/\1/p' "$config" \
               | grep -o '"[^"]*"' | tr -d '"')
    done
  done
  for link in /usr/lib/*/lib*.so; do
    [[ -L $link && ! -e $link ]] && echo "dangling $link -> $(readlink "$link")"
  done
  return 0
}

# Fail the build, naming each file, when a CMake package or a -dev link in
# the chroot DIR points at a file that is not there.
check_cmake_imports() {  # check_cmake_imports DIR
  local dir="$1" gaps
  gaps="$(in_chroot "$dir" bash -c "$(declare -f cmake_import_gaps); cmake_import_gaps")" \
    || die "could not check the CMake packages in $dir"
  if [[ -n $gaps ]]; then
    log "ERROR: files the -dev packages name and no installed or unpacked package ships:"
    sed 's/^/    /' <<<"$gaps" >&2
    die "the chroot's CMake packages or -dev links name missing files (add the package that ships them to RUNTIME_PKGS)"
  fi
  log "every file the CMake packages and -dev links name is there"
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
foreach(package hip hipblas hipblaslt hipfft hiprand hipsparse hipsolver hipcub rocthrust rocprim
        rocrand rocblas rocsolver rocsparse)
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
# wait_unused DIR: wait (up to 15 min) until no process has DIR as its root
# directory (compared by device and inode: a process chrooted in another
# mount namespace shows another path).
wait_unused() {
  local dir="$1" id users waited=0 root
  id="$(stat -c %d:%i "$dir")"
  while :; do
    users=0
    for root in /proc/[0-9]*/root; do
      [[ "$(stat -L -c %d:%i "$root" 2>/dev/null)" == "$id" ]] && users=$((users + 1))
    done
    [[ $users -eq 0 ]] && return 0
    if [[ $waited -ge 900 ]]; then
      log "WARNING: $users processes still run in the previous chroot after ${waited}s; deleting it"
      return 0
    fi
    [[ $waited -eq 0 ]] && log "waiting for $users processes still running in the previous chroot"
    sleep 5; waited=$((waited + 5))
  done
}

# setup_oracle: build the chroot of the configured oracle unless its stamp
# says it is up to date, then write its wrappers and print its versions.
setup_oracle() {
  local mirror want runtime_want tmp stale hip_version clang_version hipcc_pkg t=$SECONDS
  mkdir -p "$LOGS"
  # The wrappers and the steps below mount only in namespaces of their own:
  # anything mounted in the chroot here is a leftover (of an older wrapper).
  [[ -d $ROOT ]] && detach_mounts "$ROOT"

  mirror="$(mirror_uri)"
  want="hipport-$NAME/$STAMP_VERSION mirror=$mirror suite=$SUITE"
  [[ -n $TARGET_RELEASE ]] && want+=" target=$TARGET_RELEASE"
  want+=" install=${INSTALL_PKGS[*]} unpack=${UNPACK_PKGS[*]} optional=${OPTIONAL_UNPACK_PKGS[*]}"
  # The stamp's second line (its first stays what scripts before it wrote, so
  # that those take a newer chroot as up to date instead of rebuilding it).
  local dev
  runtime_want="runtime=${RUNTIME_PKGS[*]} optional-runtime="
  for dev in "${OPTIONAL_UNPACK_PKGS[@]}"; do
    [[ -n ${OPTIONAL_RUNTIME[$dev]:-} ]] && runtime_want+="$dev:${OPTIONAL_RUNTIME[$dev]},"
  done
  runtime_want+=" placeholders=${PLACEHOLDER_ARCHIVES[*]} checked=cmake-imports"

  if [[ "${HIPPORT_TOOLCHAIN_REFRESH:-0}" != 1 && -f $ROOT/.ready && -f $ROOT/.hipport-stamp \
        && "$(head -n1 "$ROOT/.hipport-stamp")" == "$want" \
        && "$(sed -n 2p "$ROOT/.hipport-stamp")" == "$runtime_want" \
        && -x $ROOT/usr/bin/hipcc && -f $ROOT/usr/include/hipblas/hipblas.h ]]; then
    log "chroot up to date in $ROOT"
    local note
    while IFS= read -r note; do
      log "NOTE: ${note#note }"
    done < <(grep '^note ' "$ROOT/.hipport-stamp" || true)
  else
    for stale in "$ROOT".tmp.* "$ROOT".old.*; do
      [[ -e $stale ]] && { log "removing leftover $stale"; remove_tree "$stale"; }
    done
    tmp="$ROOT.tmp.$$"
    # A failed build leaves no half chroot behind (its logs stay in $LOGS).
    BUILDING="$tmp"
    log "building the ROCm $ORACLE chroot in $tmp (logs: $LOGS)"
    build_chroot "$tmp" "$mirror" "$want" "$runtime_want"
    touch "$tmp/.ready"
    if [[ -e $ROOT ]]; then
      mv "$ROOT" "$ROOT.old.$$"
    fi
    mv "$tmp" "$ROOT"
    BUILDING=""
    # A wrapper call that entered the old chroot before the swap is still
    # reading it: delete it once no process has it as its root.
    if [[ -e $ROOT.old.$$ ]]; then
      wait_unused "$ROOT.old.$$"
      remove_tree "$ROOT.old.$$"
    fi
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
    wait || true  # a download still writing into the tree (build_chroot)
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
  local oracles=("$@") oracle i
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
  # The oracles are built at the same time: each build waits on the network
  # (debootstrap, apt) for much of its time, and the other uses the cores.
  ensure_host_tools  # once, before the builds (two at once would meet at apt's lock)
  local pids=() failed=()
  for oracle in "${oracles[@]}"; do
    (oracle_config "$oracle"; trap on_exit EXIT; setup_oracle) &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${oracles[$i]}")
  done
  ORACLE=""
  [[ ${#failed[@]} -eq 0 ]] || die "the ROCm ${failed[*]} oracle setup failed (see above)"
  log "done in $((SECONDS - start))s"
}

# Sourced (by the tests), it only defines the functions above.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
