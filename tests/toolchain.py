"""Locate and drive the HIP (hipcc) and CUDA (nvcc) compilers for tests.

The toolchain is installed by ``scripts/setup-toolchain.sh``:

* hipcc and the ROCm -dev packages come from Debian.  On Debian 12 the
  hipBLAS/hipFFT/hipCUB/rocThrust/hipSOLVER headers are unpacked from trixie
  into ``.toolchain/rocm-extra`` and announced through the environment
  variable ``HIPPORT_HIP_EXTRA_INCLUDES`` (written to ``.toolchain/env``).
* two more HIP compilers, Debian sid's ROCm 6.4 and Debian experimental's
  ROCm 7.2, run in chroots under ``${HIPPORT_TOOLCHAIN_CACHE:-/var/cache/hipport}``
  through wrapper scripts (``bin/`` and ``rocm-7.2/bin/``;
  ``scripts/setup-rocm-modern.sh``, docs/toolchains.md).  Each compiler is
  a :class:`HipOracle`; compile tests run once per oracle.
* nvcc is the CUDA toolkit's (``/usr/local/cuda/bin/nvcc``); the cuBLAS,
  cuRAND and cuFFT headers come from the ``nvidia-*`` PyPI wheels of the
  ``test`` extra, which install into ``site-packages/nvidia/cu13/include``.

Everything here only *compiles* (``-c``); no GPU is needed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from tests.ci import missing

REPO_ROOT = Path(__file__).resolve().parent.parent
TOOLCHAIN_DIR = REPO_ROOT / ".toolchain"
ROCM_EXTRA_INCLUDE = TOOLCHAIN_DIR / "rocm-extra" / "usr" / "include"

EXTRA_INCLUDES_ENV = "HIPPORT_HIP_EXTRA_INCLUDES"
HIP_OFFLOAD_ARCH = "gfx90a"
CUDA_ARCH = "sm_80"
CXX_STD = "-std=c++17"
NVCC_FALLBACK = Path("/usr/local/cuda/bin/nvcc")
DEFAULT_TIMEOUT = 600.0

CACHE_ENV = "HIPPORT_TOOLCHAIN_CACHE"
DEFAULT_CACHE = Path("/var/cache/hipport")
# The oldest ROCm we promise (Debian 12's HIP 5.2, system-wide), Debian sid's
# ROCm 6.4 and the newest we can verify (Debian experimental's ROCm 7.2), both
# in chroots.  Every compile test runs once per name; a name whose compiler is
# missing skips (fails when CI=true).
ORACLE_NAMES = ("hip-5.2", "rocm-6.4", "rocm-7.2")
# The wrapper folders of the chroot oracles, relative to the cache, and the
# chroot each runs (scripts/setup-rocm-modern.sh; hipport.doctor.hipcc.TOOLCHAINS).
CHROOT_ORACLES = {"rocm-6.4": ("bin", "rocm-sid"), "rocm-7.2": ("rocm-7.2/bin", "rocm-7.2/root")}

# Headers that identify an nvidia wheel include dir worth passing to nvcc.
_CUDA_LIBRARY_HEADERS = (
    "cublas_v2.h",
    "curand.h",
    "cufft.h",
    "cusparse.h",
    "cusolverDn.h",
)

PathLike = str | os.PathLike[str]


# --------------------------------------------------------------- locating --
def _executable(path: Path) -> str | None:
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


def toolchain_cache() -> Path:
    """The machine-level cache of scripts/setup-rocm-modern.sh."""
    return Path(os.environ.get(CACHE_ENV) or DEFAULT_CACHE)


_MOUNTINFO_ESCAPE = re.compile(r"\\([0-7]{3})")


def mount_points(mountinfo: str) -> list[str]:
    """The mount points of a ``/proc/<pid>/mountinfo`` text, unescaped
    (the kernel writes a space as ``\\040``, a backslash as ``\\134``)."""
    points = []
    for line in mountinfo.splitlines():
        fields = line.split(" ")
        if len(fields) > 4:
            points.append(_MOUNTINFO_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), fields[4]))
    return points


def mounts_below(directory: PathLike, mountinfo: str | None = None) -> list[str]:
    """Mount points below ``directory`` (symlinks resolved; not the directory
    itself, which may be a disk of its own) in ``mountinfo``, by default this
    process's mount namespace."""
    if mountinfo is None:
        mountinfo = Path("/proc/self/mountinfo").read_text(errors="surrogateescape")
    top = os.path.realpath(directory).rstrip("/")
    return [p for p in mount_points(mountinfo) if p.startswith(top + "/")]


def hipcc_path() -> str | None:
    """Path of the system ``hipcc`` (PATH first, then /usr/bin and /opt/rocm/bin).

    The chroots' wrappers (``<cache>/bin/hipcc``, ``<cache>/rocm-7.2/bin/hipcc``)
    are never returned, even when their directory is on PATH: they are the
    modern oracles, not the system one.
    """
    wrappers = {(toolchain_cache() / folder).resolve() for folder, _ in CHROOT_ORACLES.values()}
    found = shutil.which("hipcc")
    if found and Path(found).parent.resolve() not in wrappers:
        return found
    for candidate in (Path("/usr/bin/hipcc"), Path("/opt/rocm/bin/hipcc")):
        exe = _executable(candidate)
        if exe:
            return exe
    return None


def nvcc_path() -> str | None:
    """Path of ``nvcc`` (PATH first, then /usr/local/cuda/bin/nvcc)."""
    found = shutil.which("nvcc")
    if found:
        return found
    return _executable(NVCC_FALLBACK)


# --------------------------------------------------------- include paths --
def _unique_dirs(paths: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            continue
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        out.append(path)
    return out


def hip_include_dirs() -> list[Path]:
    """Extra include dirs for hipcc (empty when everything is system-wide).

    ``HIPPORT_HIP_EXTRA_INCLUDES`` (colon separated) wins when it is set, even
    to the empty string (Debian 13); otherwise ``.toolchain/rocm-extra`` is
    used when it exists (Debian 12 without ``. .toolchain/env``).
    """
    value = os.environ.get(EXTRA_INCLUDES_ENV)
    if value is not None:
        candidates = [Path(p) for p in value.split(os.pathsep) if p.strip()]
    else:
        candidates = [ROCM_EXTRA_INCLUDE]
    return _unique_dirs(candidates)


def hip_include_args() -> list[str]:
    """hipcc arguments for :func:`hip_include_dirs`.

    ``-isystem`` puts them ahead of /usr/include (so the newer rocPRIM that
    hipCUB/rocThrust need shadows Debian 12's rocPRIM 5.3) and silences
    warnings coming from those headers.
    """
    args: list[str] = []
    for path in hip_include_dirs():
        args += ["-isystem", str(path)]
    return args


def _site_dirs() -> list[Path]:
    dirs: list[str] = []
    try:
        dirs += site.getsitepackages()
    except AttributeError:  # some virtualenv flavours
        pass
    try:
        dirs.append(site.getusersitepackages())
    except AttributeError:
        pass
    for key in ("purelib", "platlib"):
        dirs.append(sysconfig.get_paths()[key])
    dirs += [p for p in sys.path if p]
    return _unique_dirs(Path(d) for d in dirs)


def _nvidia_roots() -> list[Path]:
    roots: list[Path] = []
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations is not None:
        roots += [Path(p) for p in spec.submodule_search_locations]
    roots += [d / "nvidia" for d in _site_dirs()]
    return _unique_dirs(roots)


def cuda_include_dirs() -> list[Path]:
    """Include dirs of the installed nvidia-* wheels holding library headers.

    CUDA 13 wheels share ``nvidia/cu13/include``; CUDA 12 ones use
    ``nvidia/<lib>/include``.  Only dirs with a cuBLAS/cuRAND/cuFFT/...
    header are returned, so e.g. a stray ``nvidia/cuda_runtime/include``
    cannot shadow the toolkit's own runtime headers.
    """
    found: list[Path] = []
    env = os.environ.get("HIPPORT_CUDA_EXTRA_INCLUDES")
    extra = [Path(p) for p in env.split(os.pathsep) if p] if env else [
        TOOLCHAIN_DIR / "cuda-extra" / "include"]
    found += [p for p in extra if p.is_dir()]
    for root in _nvidia_roots():
        for inc in sorted(root.glob("*/include")):
            if any((inc / h).is_file() for h in _CUDA_LIBRARY_HEADERS):
                found.append(inc)
    return _unique_dirs(found)


def cuda_include_args() -> list[str]:
    """nvcc arguments for :func:`cuda_include_dirs`.

    ``-isystem`` keeps them after nvcc's own ``-I<toolkit>/include``.
    """
    args: list[str] = []
    for path in cuda_include_dirs():
        args += ["-isystem", str(path)]
    return args


# -------------------------------------------------------------- compiling --
def hip_env() -> dict[str, str]:
    """Environment for hipcc: force the AMD platform.

    Without ``HIP_PLATFORM=amd`` hipcc 5.x picks the NVIDIA platform as soon as
    nvcc is on PATH and fails on ``--offload-arch``.
    """
    env = dict(os.environ)
    env["HIP_PLATFORM"] = "amd"
    env.pop("HIPCC_VERBOSE", None)
    return env


def _run(
    cmd: list[str],
    output: PathLike | None,
    env: dict[str, str] | None,
    timeout: float,
) -> subprocess.CompletedProcess[str]:
    if output is not None:
        return subprocess.run(
            cmd + ["-o", os.fspath(output)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    with tempfile.TemporaryDirectory(prefix="hipport-cc-") as tmp:
        return subprocess.run(
            cmd + ["-o", str(Path(tmp) / "out.o")],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def hip_compile_command(
    path: PathLike, *, extra_args: Sequence[str] = (), oracle: HipOracle | None = None,
    language: str = "hip",
) -> list[str]:
    """The hipcc command line (without ``-o``) used by :func:`compile_hip`.

    ``language="c"`` compiles a C file as host code, as CMake does for a C
    source linked to hip::host (which defines the platform macro)."""
    if oracle is not None:
        hipcc, include_args = oracle.hipcc, list(oracle.include_args)
    else:
        found = hipcc_path()
        if found is None:
            raise FileNotFoundError("hipcc not found; run scripts/setup-toolchain.sh")
        hipcc, include_args = found, hip_include_args()
    if language == "c":
        return [hipcc, *include_args, *extra_args, "-c", "-x", "c", "-D__HIP_PLATFORM_AMD__",
                os.fspath(path)]
    # ``-x hip`` makes any suffix (.cu, .cpp, .cc, .cxx, .c, ...) device code.
    return [
        hipcc,
        f"--offload-arch={HIP_OFFLOAD_ARCH}",
        CXX_STD,
        *include_args,
        *extra_args,
        "-c",
        "-x",
        "hip",
        os.fspath(path),
    ]


def compile_hip(
    path: PathLike,
    *,
    extra_args: Sequence[str] = (),
    output: PathLike | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    oracle: HipOracle | None = None,
    language: str = "hip",
) -> subprocess.CompletedProcess[str]:
    """Compile ``path`` as HIP for gfx90a (``hipcc -c``), or as C with
    ``language="c"``; never raises on errors.

    ``oracle`` picks the compiler (default: the system hipcc).  The object
    goes to ``output``, or to a temporary file that is deleted.  Check
    ``returncode`` / ``stderr`` of the result.
    """
    cmd = hip_compile_command(path, extra_args=extra_args, oracle=oracle, language=language)
    env = oracle.environ() if oracle is not None else hip_env()
    return _run(cmd, output, env, timeout)


def cuda_compile_command(
    path: PathLike, *, extra_args: Sequence[str] = ()
) -> list[str]:
    """The nvcc command line (without ``-o``) used by :func:`compile_cuda`."""
    nvcc = nvcc_path()
    if nvcc is None:
        raise FileNotFoundError("nvcc not found (PATH, /usr/local/cuda/bin/nvcc)")
    # ``-x cu``: .cpp/.cc files are CUDA too (nvcc would treat them as host C++).
    return [
        nvcc,
        f"-arch={CUDA_ARCH}",
        CXX_STD,
        *cuda_include_args(),
        *extra_args,
        "-c",
        "-x",
        "cu",
        os.fspath(path),
    ]


def compile_cuda(
    path: PathLike,
    extra_args: Sequence[str] = (),
    *,
    output: PathLike | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """Compile ``path`` as CUDA for sm_80 (``nvcc -c``); never raises on errors."""
    cmd = cuda_compile_command(path, extra_args=extra_args)
    return _run(cmd, output, None, timeout)


# ---------------------------------------------------------------- oracles --
@dataclass(frozen=True)
class HipOracle:
    """One HIP compiler that converted code is verified with.

    ``sysroot`` is where the oracle's ``/`` is on the host: ``/`` for the
    system compiler, the chroot for Debian sid's ROCm, whose tools run
    through ``runner`` (``<cache>/bin/rocm-sid-run TOOL ARG...``) on host
    files at the same paths.
    """

    name: str                          # "hip-5.2", "rocm-6.4"
    hipcc: str                         # host path (a wrapper script for the chroot)
    hip_version: tuple[int, int]
    clang_major: int
    include_args: tuple[str, ...]      # extra hipcc arguments for library headers
    include_dirs: tuple[Path, ...]     # its header roots, as host paths (for scans)
    env: tuple[tuple[str, str], ...]   # set in the environment of its tools
    sysroot: Path = Path("/")
    runner: tuple[str, ...] = ()

    @property
    def offload_archs(self) -> tuple[str, ...]:
        """GPUs its Clang can target: gfx942 needs LLVM 17 (Debian 12 has 15)."""
        return ("gfx90a", "gfx942") if self.clang_major >= 17 else ("gfx90a",)

    def environ(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(self.env)
        env.pop("HIPCC_VERBOSE", None)
        return env

    def command(self, tool: str, *args: str) -> list[str]:
        """argv that runs this oracle's ``tool`` (hipcc, hipconfig, make, cmake, ldd...)."""
        if tool == "hipcc":
            return [self.hipcc, *args]
        if self.runner:
            return [*self.runner, tool, *args]
        return [shutil.which(tool) or tool, *args]

    def has_tool(self, tool: str) -> bool:
        if self.runner:
            return any((self.sysroot / d / tool).exists() for d in ("usr/bin", "usr/sbin"))
        return shutil.which(tool) is not None

    def host_path(self, path: PathLike) -> Path:
        """The host path of an absolute path of the oracle's file system."""
        return self.sysroot / Path(path).relative_to("/")


def _probe_versions(cmd: list[str], env: dict[str, str]) -> tuple[tuple[int, int], int] | None:
    """(HIP major.minor, Clang major) from ``hipcc --version``."""
    try:
        proc = subprocess.run(cmd + ["--version"], capture_output=True, text=True, env=env,
                              timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    hip = re.search(r"HIP version: (\d+)\.(\d+)", proc.stdout)
    clang = re.search(r"clang version (\d+)", proc.stdout)
    if proc.returncode != 0 or hip is None or clang is None:
        return None
    return (int(hip.group(1)), int(hip.group(2))), int(clang.group(1))


def _system_oracle() -> HipOracle | None:
    hipcc = hipcc_path()
    if hipcc is None:
        return None
    env = (("HIP_PLATFORM", "amd"),)
    versions = _probe_versions([hipcc], dict(os.environ, HIP_PLATFORM="amd"))
    if versions is None:
        return None
    (major, minor), clang = versions
    return HipOracle(
        name=f"hip-{major}.{minor}", hipcc=hipcc, hip_version=(major, minor),
        clang_major=clang, include_args=tuple(hip_include_args()),
        include_dirs=(Path("/usr/include"), *hip_include_dirs()), env=env)


def _chroot_oracle(name: str) -> HipOracle | None:
    cache = toolchain_cache()
    folder, chroot = CHROOT_ORACLES[name]
    root = cache / chroot
    hipcc, runner = cache / folder / "hipcc", cache / folder / "rocm-sid-run"
    if not ((root / ".ready").is_file() and _executable(hipcc) and _executable(runner)):
        return None
    # The repository is bound into the chroot wherever the clone lives.
    env = (("HIP_PLATFORM", "amd"), ("HIPPORT_ROCM_SID_BIND", str(REPO_ROOT)))
    versions = _probe_versions([str(hipcc)], dict(os.environ, **dict(env)))
    if versions is None:
        return None
    (major, minor), clang = versions
    return HipOracle(
        name=f"rocm-{major}.{minor}", hipcc=str(hipcc), hip_version=(major, minor),
        clang_major=clang, include_args=(), include_dirs=(root / "usr" / "include",),
        env=env, sysroot=root, runner=(str(runner),))


@lru_cache(maxsize=1)
def hip_oracles() -> tuple[HipOracle, ...]:
    """Every HIP compiler installed on this machine, oldest first."""
    candidates = [_system_oracle(), *(_chroot_oracle(name) for name in CHROOT_ORACLES)]
    found = [o for o in candidates if o is not None]
    return tuple(sorted(found, key=lambda o: o.hip_version))


# ----------------------------------------------------------------- pytest --
def require_hipcc() -> str:
    """Return hipcc's path; skip the test without it (fail it when CI=true)."""
    path = hipcc_path()
    if path is None:
        missing("hipcc not found; run scripts/setup-toolchain.sh")
    return path


def require_hip_oracle(name: str) -> HipOracle:
    """The oracle called ``name``; skip the test without it (fail it when CI=true)."""
    found = {o.name: o for o in hip_oracles()}
    if name not in found:
        others = ", ".join(f"{o.name} ({o.hipcc})" for o in found.values()) or "none"
        missing(f"HIP oracle {name} not found (found: {others}); "
                 "run scripts/setup-toolchain.sh")
    return found[name]


def rendered_chroot_oracle(dest: Path, name: str = "rocm-6.4") -> HipOracle:
    """The chroot oracle ``name`` through this checkout's wrappers, written
    into ``dest`` (``setup-rocm-modern.sh --write-wrappers DIR X.Y``; the
    cache's wrapper folders are left alone); skips the test like
    :func:`require_hip_oracle`."""
    oracle = require_hip_oracle(name)
    folder, chroot = CHROOT_ORACLES[name]
    cache = Path(str(oracle.sysroot).removesuffix("/" + chroot))
    env = dict(os.environ, **{CACHE_ENV: str(cache)})
    done = subprocess.run(
        ["bash", str(REPO_ROOT / "scripts" / "setup-rocm-modern.sh"), "--write-wrappers",
         str(dest), name.removeprefix("rocm-")], env=env, capture_output=True, text=True,
        timeout=60, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"setup-rocm-modern.sh --write-wrappers failed: {done.stderr}")
    return replace(oracle, hipcc=str(dest / "hipcc"), runner=(str(dest / "rocm-sid-run"),))


def require_nvcc() -> str:
    """Return nvcc's path; skip the test without it (fail it when CI=true)."""
    path = nvcc_path()
    if path is None:
        missing("nvcc not found (PATH, /usr/local/cuda/bin/nvcc)")
    return path
