"""Convert a CUDA project and build it the way docs/build-files.md tells
users to, with one HIP oracle's own hipcc, make and cmake (tests/toolchain.py).

What the harness adds to the plain `make` and `cmake -S . -B build && cmake
--build build` is what those docs say, each for the situation they name:

* `HIP_PLATFORM=amd` in the environment (hipcc 5.x picks the NVIDIA platform
  when nvcc is on the PATH, as it is here);
* lld for linking, when a ROCm library is installed but a library it loads is
  not (hipBLAS without rocBLAS in the ROCm 6.4 chroot: docs/toolchains.md):
  `HIPCC_LINK_FLAGS_APPEND=-fuse-ld=lld` for make, `-DCMAKE_HIP_FLAGS=-fuse-ld=lld`
  for CMake;
* Debian 12's four gaps for CMake's HIP language, each applied only where the
  gap is (CMake < 3.27, no clang++ where hipconfig says, device libraries that
  hipcc passes by hand);
* Debian 12 ships hipBLAS and hipFFT as headers only (.toolchain/rocm-extra):
  such a project can only be compiled to objects, with the header directory
  given through HIPCC_COMPILE_FLAGS_APPEND (make) or a headers-only stand-in
  package (CMake)."""
from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hipport import pipeline
from hipport.buildfiles import detect_build_kind
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.request import Request
from hipport.settings import Settings
from tests.toolchain import HipOracle

LIBRARY_DIRS = (Path("/usr/lib/x86_64-linux-gnu"), Path("/usr/lib64"), Path("/usr/lib"),
                Path("/opt/rocm/lib"))
CMAKE_PACKAGE_DIRS = (Path("/usr/lib/x86_64-linux-gnu/cmake"), Path("/usr/lib/cmake"),
                      Path("/usr/lib64/cmake"), Path("/usr/share/cmake"),
                      Path("/opt/rocm/lib/cmake"))
HEADER_ONLY = frozenset({"hipcub", "rocthrust", "rocprim"})
PACKAGE_TARGETS = {"hipblas": "roc::hipblas", "hipfft": "hip::hipfft",
                   "hiprand": "hip::hiprand", "hipsparse": "roc::hipsparse",
                   "hipsolver": "roc::hipsolver", "rccl": "roc::rccl",
                   "hipcub": "hip::hipcub", "rocthrust": "roc::rocthrust",
                   # HIP 5.2's hipRTC is in libamdhip64 (hip::host links it), with no
                   # CMake package of its own in Debian 12
                   "hiprtc": "hiprtc::hiprtc", "rocblas": "roc::rocblas",
                   "rocrand": "roc::rocrand"}
LLD = "-fuse-ld=lld"
TIMEOUT = 900


# ------------------------------------------------------------- converting --
def convert_project(src: Path, out: Path, oracle: HipOracle,
                    rocm_version: tuple[int, ...] | None = None, roc: bool = False) -> list:
    """Sources and build files in one run, through the pipeline (as `hipport
    convert SRC -o OUT` does it, generated headers included), for the GPUs
    the oracle can target; ``roc``: `--roc`."""
    run = pipeline.run(Request((src,), Mode.MIRROR, Settings(rocm_version=rocm_version,
                                                           offload_arch=oracle.offload_archs,
                                                           roc=roc),
                               output=out, jobs=1))
    results = run.results
    assert all(r.outcome is not Outcome.FAILED for r in results), results
    build = [r for r in results if detect_build_kind(Path(r.display)) is not None]
    assert build and all(r.outcome is Outcome.CONVERTED for r in build), build
    return [f for r in build for f in r.findings]


# -------------------------------------------------------------- libraries --
@dataclass(frozen=True)
class Libraries:
    """What an oracle has of the ROCm libraries a project links."""

    absent: tuple[str, ...]      # no shared object: headers only (Debian 12's hipBLAS)
    unloadable: tuple[str, ...]  # a library it needs is missing (hipBLAS without rocBLAS)

    @classmethod
    def of(cls, oracle: HipOracle, names: Iterable[str]) -> Libraries:
        names = sorted(set(names) - HEADER_ONLY - {"amdhip64", "hip"})
        absent = [n for n in names if _shared_object(oracle, n) is None]
        unloadable = [n for n in names if n not in absent and not _loads(oracle, n)]
        return cls(tuple(absent), tuple(unloadable))


def _shared_object(oracle: HipOracle, name: str) -> Path | None:
    return next((d / f"lib{name}.so" for d in LIBRARY_DIRS
                 if oracle.host_path(d / f"lib{name}.so").exists()), None)


@lru_cache(maxsize=None)
def _loads(oracle: HipOracle, name: str) -> bool:
    """Every library lib<name>.so needs is installed (``ldd`` finds them all)."""
    library = _shared_object(oracle, name)
    proc = subprocess.run(oracle.command("ldd", str(library)), capture_output=True, text=True,
                          env=oracle.environ(), check=False)
    return proc.returncode == 0 and "not found" not in proc.stdout


def _package_config_present(oracle: HipOracle, name: str) -> bool:
    return any(oracle.host_path(r / name / f"{name}-config.cmake").exists()
               or oracle.host_path(r / name / f"{name}Config.cmake").exists()
               for r in CMAKE_PACKAGE_DIRS)


# ---------------------------------------------------------------- running --
def tail(proc: subprocess.CompletedProcess[str], lines: int = 5) -> str:
    return "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-lines:])


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def executables(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir() if p.is_file() and os.access(p, os.X_OK)
            and p.read_bytes()[:4] == b"\x7fELF"}


# ------------------------------------------------------------------- make --
@dataclass(frozen=True)
class Build:
    proc: subprocess.CompletedProcess[str]
    command: str               # what was run, for messages
    objects_only: tuple[str, ...] = ()  # the targets built when nothing could be linked


def make_build(oracle: HipOracle, directory: Path) -> Build:
    """`make` in a converted Makefile's directory."""
    makefile = (directory / "Makefile").read_text()
    libraries = Libraries.of(oracle, re.findall(r"(?<!\S)-l(\w+)", makefile))
    env = oracle.environ()
    if libraries.unloadable:
        env["HIPCC_LINK_FLAGS_APPEND"] = LLD
    targets: list[str] = []
    if libraries.absent:
        targets = [f"{cu.stem}.o" for cu in sorted(directory.glob("*.cu"))]
        if oracle.include_dirs[1:]:
            env["HIPCC_COMPILE_FLAGS_APPEND"] = " ".join(f"-isystem {d}"
                                                         for d in oracle.include_dirs[1:])
    proc = run(oracle.command("make", *targets), directory, env)
    shown = " ".join(f"{k}={env[k]}" for k in ("HIPCC_LINK_FLAGS_APPEND",) if k in env)
    return Build(proc, f"{shown} make {' '.join(targets)}".strip(), tuple(targets))


# ------------------------------------------------------------------ cmake --
@lru_cache(maxsize=None)
def _cmake_version(oracle: HipOracle) -> tuple[int, int]:
    out = subprocess.run(oracle.command("cmake", "--version"), capture_output=True, text=True,
                         env=oracle.environ(), check=False).stdout
    found = re.search(r"version (\d+)\.(\d+)", out)
    assert found, out
    return int(found.group(1)), int(found.group(2))


@lru_cache(maxsize=None)
def _hipcc_settings(oracle: HipOracle) -> tuple[str, str, str | None, str | None, str | None]:
    """(ROCm root, hipconfig's Clang directory, --rocm-path, device library
    directory, Clang) exactly as hipcc uses them; None where hipcc passes
    nothing (sid's hipcc 7 lets Clang find the device libraries in its
    resource directory)."""
    env = oracle.environ() | {"HIPCC_VERBOSE": "1"}

    def ask(*argv: str) -> str:
        return subprocess.run(oracle.command(*argv), capture_output=True, text=True, env=env,
                              check=False).stdout.strip()

    root = ask("hipconfig", "--rocmpath") or "/opt/rocm"
    clang_dir = ask("hipconfig", "--hipclangpath")
    probe = subprocess.run(oracle.command("hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c",
                                          "/dev/null", "-o", os.devnull),
                           capture_output=True, text=True, env=env, check=False)
    command = (probe.stdout + probe.stderr).partition("hipcc-cmd:")[2].split("\n")[0]
    rocm_path = re.search(r'--rocm-path="?([^"\s]+)', command)
    device_libs = re.search(r'--hip-device-lib-path="?([^"\s]+)', command)
    clang = None
    if command.split():
        resolved = ask("readlink", "-f", command.split()[0])  # the chroot's own symlinks
        if resolved and oracle.host_path(Path(resolved).parent / "clang++").exists():
            clang = str(Path(resolved).parent / "clang++")
    return (root, clang_dir, rocm_path.group(1) if rocm_path else None,
            device_libs.group(1) if device_libs else None, clang)


def cmake_configure_args(oracle: HipOracle, tmp: Path, stubbed: list[str],
                         unloadable: bool) -> tuple[list[str], dict[str, str]]:
    """docs/build-files.md: lld when a library cannot be loaded, and Debian 12's
    gaps, each only where it is."""
    root, clang_dir, rocm_path, device_libs, clang = _hipcc_settings(oracle)
    args: list[str] = []
    env = oracle.environ()
    if clang and not oracle.host_path(Path(clang_dir) / "clang++").exists():
        # Debian 12: clang++-15 only, and hipconfig --hipclangpath says /usr/bin
        args.append(f"-DCMAKE_HIP_COMPILER={clang}")
    # Debian 12's Clang does not find the device libraries by itself; pass
    # what hipcc passes, and only that (--rocm-path=/usr breaks sid's Clang).
    flags = [f"--rocm-path={rocm_path}"] if rocm_path else []
    if device_libs:
        flags.append(f"--rocm-device-lib-path={device_libs}")
    if unloadable:
        flags.append(LLD)
    if stubbed:
        flags += [f"-isystem {d}" for d in oracle.include_dirs[1:]]
    if flags:
        args.append("-DCMAKE_HIP_FLAGS=" + " ".join(flags))
    if _cmake_version(oracle) < (3, 27):
        lang_config = Path(root) / "lib" / "cmake" / "hip-lang" / "hip-lang-config.cmake"
        if not oracle.host_path(lang_config).exists():
            # CMake < 3.27 looks for hip-lang only in <root>/lib/cmake, Debian puts
            # it in <root>/lib/<multiarch>/cmake (CMake issue 24562).
            found = sorted(oracle.host_path(root).glob(
                "lib/*/cmake/hip-lang/hip-lang-config.cmake"))
            assert found, "no hip-lang CMake package: install libamdhip64-dev"
            package = Path("/") / found[0].parent.relative_to(oracle.sysroot)
            shim = tmp / "rocm-root"
            (shim / "lib" / "cmake").mkdir(parents=True, exist_ok=True)
            (shim / "lib" / "cmake" / "hip-lang").symlink_to(package)
            args.append(f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={shim}")
            # hip-lang's find_dependency(amd_comgr) runs inside try_compile,
            # before CMake knows the multiarch directory.
            env["CMAKE_PREFIX_PATH"] = str(package.parent)
    for package in stubbed:
        stub = tmp / "stubs" / package
        stub.mkdir(parents=True)
        includes = ";".join(str(d) for d in oracle.include_dirs[1:])
        (stub / f"{package}-config.cmake").write_text(
            f"# hipport test stand-in: {package} is installed as headers only\n"
            f"add_library({PACKAGE_TARGETS[package]} INTERFACE IMPORTED)\n"
            f'set_target_properties({PACKAGE_TARGETS[package]} PROPERTIES '
            f'INTERFACE_INCLUDE_DIRECTORIES "{includes}")\n')
        args.append(f"-D{package}_DIR={stub}")
    return args, env


def cmake_build(oracle: HipOracle, source: Path, tmp: Path,
                defines: tuple[str, ...] = ()) -> Build:
    """`cmake -S source -B tmp/build` and `cmake --build tmp/build` (objects
    only when a library is headers only); ``defines``: the user's own
    ``-D...`` options."""
    lists = (source / "CMakeLists.txt").read_text()
    packages = sorted(set(re.findall(r"find_package\((\w+)", lists)) - {"hip"})
    stubbed = [p for p in packages if not _package_config_present(oracle, p)]
    libraries = Libraries.of(oracle, packages)
    args, env = cmake_configure_args(oracle, tmp, stubbed, bool(libraries.unloadable))
    args += defines
    build = tmp / "build"
    configure = run(oracle.command("cmake", "-S", str(source), "-B", str(build), *args),
                    tmp, env)
    command = f"cmake {' '.join(args)}".strip()
    if configure.returncode != 0:
        return Build(configure, command)
    targets: list[str] = []
    if libraries.absent:
        targets = [f"{cu.name}.o" for cu in sorted(source.glob("*.cu"))]
        return Build(run(oracle.command("make", "-C", str(build), *targets), tmp, env),
                     command, tuple(targets))
    return Build(run(oracle.command("cmake", "--build", str(build)), tmp, env), command)
