"""Every example project converts (sources *and* build files), and the
converted project builds with real tools, once per HIP compiler
(tests/toolchain.py): ``make`` with hipcc and ``cmake`` with CMake's HIP
language, for the GPUs that compiler can target (gfx90a; gfx90a and gfx942
from LLVM 17 on).  The ROCm 6.4 oracle's make and cmake are the chroot's own.

Libraries: a converted example is linked when every ROCm library it uses can
be linked: its shared object and everything that object needs are installed
(``ldd`` finds them all).  Otherwise it is compiled to objects only.  Debian
12 ships hipBLAS and hipFFT as headers only (unpacked under
.toolchain/rocm-extra): hipcc gets the header directory through
HIPCC_COMPILE_FLAGS_APPEND (the Makefile stays as converted), CMake gets a
headers-only stand-in package (an INTERFACE target of the same name) when the
real package is missing.  The ROCm 6.4 chroot has the hipBLAS, hipSPARSE and
hipSOLVER shared objects and CMake packages but not the rocBLAS, rocSPARSE
and rocSOLVER libraries they need (several GB of GPU kernels), so GNU ld
cannot link them; their objects are linked with lld instead
(docs/toolchains.md).  docs/build-files.md explains the
CMake work-arounds for Debian's packaging that ``_cmake_configure_args``
applies."""
from __future__ import annotations

import os
import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from hipport.buildfiles import BuildOptions, detect_build_kind
from hipport.runner import Job, Mode, Outcome, RunOptions, run_batch
from tests.ci import missing
from tests.toolchain import HipOracle

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
PROJECTS = sorted(p for p in EXAMPLES.iterdir()
                  if p.is_dir() and any(detect_build_kind(f) for f in p.iterdir()))
LIBRARY_DIRS = (Path("/usr/lib/x86_64-linux-gnu"), Path("/usr/lib64"), Path("/usr/lib"),
                Path("/opt/rocm/lib"))
CMAKE_PACKAGE_DIRS = (Path("/usr/lib/x86_64-linux-gnu/cmake"), Path("/usr/lib/cmake"),
                      Path("/usr/lib64/cmake"), Path("/usr/share/cmake"),
                      Path("/opt/rocm/lib/cmake"))
HEADER_ONLY = frozenset({"hipcub", "rocthrust", "rocprim"})
PACKAGE_TARGETS = {"hipblas": "roc::hipblas", "hipfft": "hip::hipfft",
                   "hiprand": "hip::hiprand", "hipsparse": "roc::hipsparse",
                   "hipsolver": "roc::hipsolver", "rccl": "roc::rccl",
                   "hipcub": "hip::hipcub", "rocthrust": "roc::rocthrust"}
TIMEOUT = 900


def _required(oracle: HipOracle, tool: str) -> None:
    if not oracle.has_tool(tool):
        missing(f"{tool} not found for {oracle.name}")


def convert_project(src: Path, out: Path, options: BuildOptions) -> list:
    """Sources and build files in one run, through the runner (as `hipport
    convert` does it)."""
    jobs = []
    for f in sorted(src.rglob("*")):
        if f.is_file():
            kind = detect_build_kind(f)
            jobs.append(Job(f, str(f.relative_to(src)), out / f.relative_to(src),
                            convert=kind is not None or f.suffix in (".cu", ".cuh", ".h", ".cpp"),
                            build_kind=kind))
    results = run_batch(jobs, RunOptions(Mode.MIRROR, offload_arch=options.offload_arch))
    assert all(r.outcome is not Outcome.FAILED for r in results), results
    build = [r for r, j in zip(results, jobs) if j.build_kind is not None]
    assert build and all(r.outcome is Outcome.CONVERTED for r in build), build
    return [f for r in build for f in r.findings]


def _options(oracle: HipOracle) -> BuildOptions:
    return BuildOptions(offload_arch=oracle.offload_archs)


@lru_cache(maxsize=None)
def _library_links(oracle: HipOracle, name: str) -> bool:
    """lib<name>.so is installed and every library it needs is found."""
    for directory in LIBRARY_DIRS:
        library = directory / f"lib{name}.so"
        if oracle.host_path(library).exists():
            proc = subprocess.run(oracle.command("ldd", str(library)), capture_output=True,
                                  text=True, env=oracle.environ(), check=False)
            return proc.returncode == 0 and "not found" not in proc.stdout
    return False


def _library_present(oracle: HipOracle, name: str) -> bool:
    return any(oracle.host_path(d / f"lib{name}.so").exists() for d in LIBRARY_DIRS)


def _link_with_lld(oracle: HipOracle, name: str, directory: Path, objects: list[str],
                   libraries: list[str], env: dict[str, str]) -> None:
    """Link against libraries whose own dependencies are absent (hipBLAS
    without rocBLAS in the ROCm chroot).  GNU ld refuses that; lld checks
    every symbol the program uses against the libraries it is given and does
    not check the libraries' own undefined symbols when their dependencies
    are not there.  A real link of the real libraries, not a runnable program."""
    argv = oracle.command("hipcc", "-fuse-ld=lld", *objects, "-o", f"{name}.lld",
                          *[f"-l{lib}" for lib in libraries], "-lamdhip64")
    proc = _run(argv, directory, env)
    print(f"[{name}] linked with lld against {', '.join(libraries)}:\n{_tail(proc)}")
    assert proc.returncode == 0, _tail(proc, 40)
    assert f"{name}.lld" in _executables(directory)


def _package_config_present(oracle: HipOracle, name: str) -> bool:
    return any(oracle.host_path(r / name / f"{name}-config.cmake").exists()
               or oracle.host_path(r / name / f"{name}Config.cmake").exists()
               for r in CMAKE_PACKAGE_DIRS)


def _tail(proc: subprocess.CompletedProcess[str], lines: int = 5) -> str:
    return "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-lines:])


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def _executables(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir() if p.is_file() and os.access(p, os.X_OK)
            and p.read_bytes()[:4] == b"\x7fELF"}


@lru_cache(maxsize=None)
def _hipcc_settings(oracle: HipOracle) -> tuple[str, str | None, str | None, str | None]:
    """(ROCm root, --rocm-path, device library dir, Clang) exactly as hipcc
    uses them; None where hipcc passes nothing (sid's hipcc 7 lets Clang find
    the device libraries in its resource directory)."""
    env = oracle.environ() | {"HIPCC_VERBOSE": "1"}
    root = subprocess.run(oracle.command("hipconfig", "--rocmpath"), capture_output=True,
                          text=True, env=env, check=False).stdout.strip() or "/opt/rocm"
    probe = subprocess.run(oracle.command("hipcc", "--offload-arch=gfx90a", "-x", "hip", "-c",
                                          "/dev/null", "-o", os.devnull),
                           capture_output=True, text=True, env=env, check=False)
    command = (probe.stdout + probe.stderr).partition("hipcc-cmd:")[2].split("\n")[0]
    rocm_path = re.search(r'--rocm-path="?([^"\s]+)', command)
    device_libs = re.search(r'--hip-device-lib-path="?([^"\s]+)', command)
    clang = None
    if command.split():
        # resolved by the oracle itself: the chroot's symlinks are its own
        resolved = subprocess.run(oracle.command("readlink", "-f", command.split()[0]),
                                  capture_output=True, text=True, env=env,
                                  check=False).stdout.strip()
        if resolved and oracle.host_path(Path(resolved).parent / "clang++").exists():
            clang = str(Path(resolved).parent / "clang++")
    return (root, rocm_path.group(1) if rocm_path else None,
            device_libs.group(1) if device_libs else None, clang)


def _cmake_configure_args(oracle: HipOracle, tmp: Path,
                          stubbed: list[str]) -> tuple[list[str], dict[str, str]]:
    root, rocm_path, device_libs, clang = _hipcc_settings(oracle)
    args: list[str] = []
    env = oracle.environ()
    extra_includes = oracle.include_dirs[1:]
    if clang:  # Debian has clang++-NN only; CMake's default search wants clang++
        args.append(f"-DCMAKE_HIP_COMPILER={clang}")
    # Debian 12's Clang does not find the device libraries by itself; pass
    # what hipcc passes, and only that (--rocm-path=/usr breaks sid's Clang).
    flags = [f"--rocm-path={rocm_path}"] if rocm_path else []
    if device_libs:
        flags.append(f"--rocm-device-lib-path={device_libs}")
    if stubbed:
        flags += [f"-isystem {d}" for d in extra_includes]
    if flags:
        args.append("-DCMAKE_HIP_FLAGS=" + " ".join(flags))
    lang_config = Path(root) / "lib" / "cmake" / "hip-lang" / "hip-lang-config.cmake"
    if not oracle.host_path(lang_config).exists():
        # CMake < 3.27 looks for hip-lang only in <root>/lib/cmake, Debian puts
        # it in <root>/lib/<multiarch>/cmake (CMake issue 24562).
        found = sorted(oracle.host_path(root).glob("lib/*/cmake/hip-lang/hip-lang-config.cmake"))
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
        includes = ";".join(str(d) for d in extra_includes)
        (stub / f"{package}-config.cmake").write_text(
            f"# hipport test stand-in: {package} is installed as headers only\n"
            f"add_library({PACKAGE_TARGETS[package]} INTERFACE IMPORTED)\n"
            f'set_target_properties({PACKAGE_TARGETS[package]} PROPERTIES '
            f'INTERFACE_INCLUDE_DIRECTORIES "{includes}")\n')
        args.append(f"-D{package}_DIR={stub}")
    return args, env


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_makefile_builds_with_hipcc(project: Path, tmp_path: Path,
                                              hip_oracle: HipOracle):
    _required(hip_oracle, "make")
    if not (project / "Makefile").exists():
        pytest.skip("no Makefile")
    convert_project(project, tmp_path, _options(hip_oracle))
    makefile = (tmp_path / "Makefile").read_text()
    assert "nvcc" not in makefile.replace("# ", "")
    libraries = sorted(set(re.findall(r"-l(\w+)", makefile)) - {"amdhip64"})
    missing = [lib for lib in libraries if not _library_links(hip_oracle, lib)]
    env = hip_oracle.environ()
    root = _hipcc_settings(hip_oracle)[0]
    command = hip_oracle.command("make", f"ROCM_PATH={root}")
    if missing:
        if hip_oracle.include_dirs[1:]:
            env["HIPCC_COMPILE_FLAGS_APPEND"] = " ".join(f"-isystem {d}"
                                                         for d in hip_oracle.include_dirs[1:])
        objects = [f"{cu.stem}.o" for cu in sorted(tmp_path.glob("*.cu"))]
        proc = _run(command + objects, tmp_path, env)
        print(f"\n[{project.name}] make {' '.join(objects)} (objects only; cannot link: "
              f"{', '.join(missing)}):\n{_tail(proc)}")
        assert proc.returncode == 0, _tail(proc, 40)
        assert all((tmp_path / o).exists() for o in objects)
        if all(_library_present(hip_oracle, lib) for lib in missing):
            _link_with_lld(hip_oracle, project.name, tmp_path, objects, libraries, env)
        return
    proc = _run(command, tmp_path, env)
    print(f"\n[{project.name}] make:\n{_tail(proc)}")
    assert proc.returncode == 0, _tail(proc, 40)
    assert _executables(tmp_path), "make built no executable"


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_cmake_project_builds(project: Path, tmp_path: Path, hip_oracle: HipOracle):
    _required(hip_oracle, "cmake")
    _required(hip_oracle, "make")
    if not (project / "CMakeLists.txt").exists():
        pytest.skip("no CMakeLists.txt")
    source = tmp_path / "src"
    convert_project(project, source, _options(hip_oracle))
    lists = (source / "CMakeLists.txt").read_text()
    assert "CUDA" not in re.sub(r"#.*", "", lists)
    packages = sorted(set(re.findall(r"find_package\((\w+)", lists)) - {"hip"})
    stubbed = [p for p in packages if not _package_config_present(hip_oracle, p)]
    missing = [p for p in packages
               if p not in HEADER_ONLY and not _library_links(hip_oracle, p)]
    args, env = _cmake_configure_args(hip_oracle, tmp_path, stubbed)
    build = tmp_path / "build"
    configure = _run(hip_oracle.command("cmake", "-S", str(source), "-B", str(build), *args),
                     tmp_path, env)
    assert configure.returncode == 0, _tail(configure, 60)
    if missing:
        objects = [f"{cu.name}.o" for cu in sorted(source.glob("*.cu"))]
        proc = _run(hip_oracle.command("make", "-C", str(build), *objects), tmp_path, env)
        print(f"\n[{project.name}] cmake, objects only (cannot link: "
              f"{', '.join(missing)}):\n{_tail(proc)}")
        assert proc.returncode == 0, _tail(proc, 40)
        assert "Building HIP object" in proc.stdout
        return
    proc = _run(hip_oracle.command("cmake", "--build", str(build)), tmp_path, env)
    print(f"\n[{project.name}] cmake --build:\n{_tail(proc)}")
    assert proc.returncode == 0, _tail(proc, 40)
    assert "Building HIP object" in proc.stdout
    assert _executables(build), "cmake built no executable"
