"""Every example project converts (sources *and* build files), and the
converted project builds with real tools: ``make`` with hipcc and
``cmake`` with CMake's HIP language, for gfx90a.

Libraries: a converted example is linked when every ROCm library it uses is
installed (library file plus CMake package).  Debian 12 ships hipBLAS and
hipFFT as headers only (unpacked under .toolchain/rocm-extra), so there the
examples that use them are compiled to objects only: hipcc gets the header
directory through HIPCC_COMPILE_FLAGS_APPEND (the Makefile stays as
converted), CMake gets a headers-only stand-in package (an INTERFACE target
of the same name).  docs/build-files.md explains the CMake work-arounds for
Debian's packaging that ``_cmake_configure_args`` applies."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.buildfiles import BuildOptions, detect_build_kind
from hipport.runner import Job, Mode, Outcome, RunOptions, run_batch
from tests.toolchain import hip_env, hip_include_dirs, require_hipcc

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
PROJECTS = sorted(p for p in EXAMPLES.iterdir()
                  if p.is_dir() and any(detect_build_kind(f) for f in p.iterdir()))
# gfx942 needs LLVM 17+; Debian 12's Clang 15 stops at gfx940.
OPTIONS = BuildOptions(offload_arch=("gfx90a",))
LIBRARY_DIRS = (Path("/usr/lib/x86_64-linux-gnu"), Path("/usr/lib64"), Path("/usr/lib"),
                Path("/opt/rocm/lib"))
PACKAGE_TARGETS = {"hipblas": "roc::hipblas", "hipfft": "hip::hipfft",
                   "hiprand": "hip::hiprand", "hipsparse": "roc::hipsparse",
                   "hipsolver": "roc::hipsolver", "rccl": "roc::rccl",
                   "hipcub": "hip::hipcub", "rocthrust": "roc::rocthrust"}
TIMEOUT = 900


def _required(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} not found"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message + " (required when CI=true)", pytrace=False)
        pytest.skip(message)
    return found


def convert_project(src: Path, out: Path) -> list:
    """Sources and build files in one run, through the runner (as `hipport
    convert` does it)."""
    jobs = []
    for f in sorted(src.rglob("*")):
        if f.is_file():
            kind = detect_build_kind(f)
            jobs.append(Job(f, str(f.relative_to(src)), out / f.relative_to(src),
                            convert=kind is not None or f.suffix in (".cu", ".cuh", ".h", ".cpp"),
                            build_kind=kind))
    results = run_batch(jobs, RunOptions(Mode.MIRROR, offload_arch=OPTIONS.offload_arch))
    assert all(r.outcome is not Outcome.FAILED for r in results), results
    build = [r for r, j in zip(results, jobs) if j.build_kind is not None]
    assert build and all(r.outcome is Outcome.CONVERTED for r in build), build
    return [f for r in build for f in r.findings]


def _library_installed(name: str) -> bool:
    return any((d / f"lib{name}.so").exists() for d in LIBRARY_DIRS)


def _package_installed(name: str) -> bool:
    roots = [Path("/usr/lib/x86_64-linux-gnu/cmake"), Path("/usr/lib/cmake"),
             Path("/usr/lib64/cmake"), Path("/opt/rocm/lib/cmake")]
    config = any((r / name / f"{name}-config.cmake").exists()
                 or (r / name / f"{name}Config.cmake").exists() for r in roots)
    return config and (_library_installed(name) or name in ("hipcub", "rocthrust"))


def _tail(proc: subprocess.CompletedProcess[str], lines: int = 5) -> str:
    return "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-lines:])


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def _executables(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir() if p.is_file() and os.access(p, os.X_OK)
            and p.read_bytes()[:4] == b"\x7fELF"}


def _hipcc_settings() -> tuple[str, str | None, str | None]:
    """(ROCm root, device library dir, Clang) exactly as hipcc uses them."""
    env = hip_env() | {"HIPCC_VERBOSE": "1"}
    root = subprocess.run(["hipconfig", "--rocmpath"], capture_output=True, text=True,
                          env=env, check=False).stdout.strip() or "/opt/rocm"
    probe = subprocess.run([shutil.which("hipcc") or "hipcc", "--offload-arch=gfx90a", "-x",
                            "hip", "-c", "/dev/null", "-o", os.devnull],
                           capture_output=True, text=True, env=env, check=False)
    command = (probe.stdout + probe.stderr).partition("hipcc-cmd:")[2].split("\n")[0]
    device_libs = re.search(r'--hip-device-lib-path="?([^"\s]+)', command)
    clang = None
    if command.split():
        resolved = Path(command.split()[0]).resolve()
        if (resolved.parent / "clang++").exists():
            clang = str(resolved.parent / "clang++")
    return root, device_libs.group(1) if device_libs else None, clang


def _cmake_configure_args(tmp: Path, missing: list[str]) -> tuple[list[str], dict[str, str]]:
    root, device_libs, clang = _hipcc_settings()
    args: list[str] = []
    env = hip_env()
    if clang:  # Debian has clang++-NN only; CMake's default search wants clang++
        args.append(f"-DCMAKE_HIP_COMPILER={clang}")
    flags = [f"--rocm-path={root}"]
    if device_libs:  # Debian's Clang does not find the device libraries by itself
        flags.append(f"--rocm-device-lib-path={device_libs}")
    if missing:
        flags += [f"-isystem {d}" for d in hip_include_dirs()]
    args.append("-DCMAKE_HIP_FLAGS=" + " ".join(flags))
    lang_config = Path(root) / "lib" / "cmake" / "hip-lang" / "hip-lang-config.cmake"
    if not lang_config.exists():
        # CMake < 3.27 looks for hip-lang only in <root>/lib/cmake, Debian puts
        # it in <root>/lib/<multiarch>/cmake (CMake issue 24562).
        found = sorted(Path(root).glob("lib/*/cmake/hip-lang/hip-lang-config.cmake"))
        assert found, "no hip-lang CMake package: install libamdhip64-dev"
        shim = tmp / "rocm-root"
        (shim / "lib" / "cmake").mkdir(parents=True, exist_ok=True)
        (shim / "lib" / "cmake" / "hip-lang").symlink_to(found[0].parent)
        args.append(f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={shim}")
        # hip-lang's find_dependency(amd_comgr) runs inside try_compile,
        # before CMake knows the multiarch directory.
        env["CMAKE_PREFIX_PATH"] = str(found[0].parent.parent)
    for package in missing:
        stub = tmp / "stubs" / package
        stub.mkdir(parents=True)
        includes = ";".join(str(d) for d in hip_include_dirs())
        (stub / f"{package}-config.cmake").write_text(
            f"# hipport test stand-in: {package} is installed as headers only\n"
            f"add_library({PACKAGE_TARGETS[package]} INTERFACE IMPORTED)\n"
            f'set_target_properties({PACKAGE_TARGETS[package]} PROPERTIES '
            f'INTERFACE_INCLUDE_DIRECTORIES "{includes}")\n')
        args.append(f"-D{package}_DIR={stub}")
    return args, env


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_makefile_builds_with_hipcc(project: Path, tmp_path: Path):
    require_hipcc()
    _required("make")
    if not (project / "Makefile").exists():
        pytest.skip("no Makefile")
    convert_project(project, tmp_path)
    makefile = (tmp_path / "Makefile").read_text()
    assert "nvcc" not in makefile.replace("# ", "")
    libraries = sorted(set(re.findall(r"-l(\w+)", makefile)) - {"amdhip64"})
    missing = [lib for lib in libraries if not _library_installed(lib)]
    env = hip_env()
    root, _, _ = _hipcc_settings()
    command = ["make", f"ROCM_PATH={root}"]
    if missing:
        env["HIPCC_COMPILE_FLAGS_APPEND"] = " ".join(f"-isystem {d}"
                                                     for d in hip_include_dirs())
        objects = [f"{cu.stem}.o" for cu in sorted(tmp_path.glob("*.cu"))]
        proc = _run(command + objects, tmp_path, env)
        print(f"\n[{project.name}] make {' '.join(objects)} (objects only; not installed: "
              f"{', '.join(missing)}):\n{_tail(proc)}")
        assert proc.returncode == 0, _tail(proc, 40)
        assert all((tmp_path / o).exists() for o in objects)
        return
    proc = _run(command, tmp_path, env)
    print(f"\n[{project.name}] make:\n{_tail(proc)}")
    assert proc.returncode == 0, _tail(proc, 40)
    assert _executables(tmp_path), "make built no executable"


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_cmake_project_builds(project: Path, tmp_path: Path):
    require_hipcc()
    _required("cmake")
    if not (project / "CMakeLists.txt").exists():
        pytest.skip("no CMakeLists.txt")
    source = tmp_path / "src"
    convert_project(project, source)
    lists = (source / "CMakeLists.txt").read_text()
    assert "CUDA" not in re.sub(r"#.*", "", lists)
    packages = sorted(set(re.findall(r"find_package\((\w+)", lists)) - {"hip"})
    missing = [p for p in packages if not _package_installed(p)]
    args, env = _cmake_configure_args(tmp_path, missing)
    build = tmp_path / "build"
    configure = _run(["cmake", "-S", str(source), "-B", str(build), *args], tmp_path, env)
    assert configure.returncode == 0, _tail(configure, 60)
    if missing:
        objects = [f"{cu.name}.o" for cu in sorted(source.glob("*.cu"))]
        proc = _run(["make", "-C", str(build), *objects], tmp_path, env)
        print(f"\n[{project.name}] cmake, objects only (not installed: "
              f"{', '.join(missing)}):\n{_tail(proc)}")
        assert proc.returncode == 0, _tail(proc, 40)
        assert "Building HIP object" in proc.stdout
        return
    proc = _run(["cmake", "--build", str(build)], tmp_path, env)
    print(f"\n[{project.name}] cmake --build:\n{_tail(proc)}")
    assert proc.returncode == 0, _tail(proc, 40)
    assert "Building HIP object" in proc.stdout
    assert _executables(build), "cmake built no executable"
