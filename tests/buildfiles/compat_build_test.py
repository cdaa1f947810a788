"""Single-source build files (`--strategy compat`) with real tools.

Switch on, each HIP oracle's own cmake/make/hipcc build the example to an
executable (the harness adds what tests/buildfiles/building.py adds for the
rewrite).  Switch off, the CUDA build is the original one: CMake configured
with nvcc generates the same compile and link commands, `make -n` prints the
same commands.  The whole example is converted as a user converts it
(`hipport convert --strategy compat`): sources, build files and the generated
hip_compat.h, so one CMake project and one Makefile build both ways."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hipport.buildfiles import detect_build_kind
from hipport.buildfiles.cmake.single_source import project_switch
from hipport.compat.strategy import CompatStrategy
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.pipeline import run as run_pipeline
from hipport.request import Request
from hipport.settings import Settings
from tests.buildfiles.building import (
    cmake_configure_args,
    executables,
    run,
    tail,
)
from tests.ci import missing
from tests.toolchain import HipOracle, require_hip_oracle, require_nvcc

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
BUILT = ["vector_add", "stream_pipeline"]  # need nothing but the runtime
ALL = sorted(p.name for p in EXAMPLES.iterdir()
             if p.is_dir() and any(detect_build_kind(f) for f in p.iterdir()))


def compat_project(name: str, dest: Path, offload: tuple[str, ...] = ("gfx90a",),
                   macro: str = "") -> Path:
    """The example as `hipport convert --strategy compat -o DEST` writes it."""
    request = Request((EXAMPLES / name,), Mode.MIRROR, Settings(offload_arch=offload),
                      output=dest, cache=False, jobs=1, force=True,
                      strategy=CompatStrategy(macro=macro))
    results = run_pipeline(request).results
    assert not [r for r in results if r.outcome is Outcome.FAILED], results
    for r in results:
        if detect_build_kind(Path(r.display)) is not None:
            assert r.outcome is Outcome.CONVERTED, r.display
            assert not [f for f in r.findings if f.code in ("HP003", "HP005", "HP656")]
    assert (dest / "hip_compat.h").is_file()
    return dest


def required(oracle: HipOracle, *tools: str) -> None:
    for tool in tools:
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")


# ---------------------------------------------------------------- HIP side --
@pytest.mark.parametrize("name", BUILT)
def test_cmake_option_on_builds_with_hip(name: str, tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    source = compat_project(name, tmp_path / "src", hip_oracle.offload_archs)
    switch = project_switch(name)
    args, env = cmake_configure_args(hip_oracle, tmp_path, [], False)
    build = tmp_path / "build"
    configure = run(hip_oracle.command("cmake", "-S", str(source), "-B", str(build),
                                       f"-D{switch}=ON", *args), tmp_path, env)
    assert configure.returncode == 0, tail(configure, 60)
    assert "nvcc" not in (build / "CMakeCache.txt").read_text().lower()
    proc = run(hip_oracle.command("cmake", "--build", str(build)), tmp_path, env)
    print(f"\n[{name}] cmake -D{switch}=ON {' '.join(args)}:\n{tail(proc)}")
    assert proc.returncode == 0, tail(proc, 60)
    assert "Building HIP object" in proc.stdout
    assert executables(build) == {name}


@pytest.mark.parametrize("name", BUILT)
def test_make_hip_1_builds_with_hipcc(name: str, tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "make")
    source = compat_project(name, tmp_path / "src", hip_oracle.offload_archs)
    proc = run(hip_oracle.command("make", "HIP=1"), source, hip_oracle.environ())
    print(f"\n[{name}] make HIP=1:\n{tail(proc)}")
    assert proc.returncode == 0, tail(proc, 40)
    assert "hipcc" in proc.stdout and "nvcc" not in proc.stdout
    assert executables(source) == {name}


def test_a_project_macro_builds_with_make_and_cmake(tmp_path: Path):
    """--compat-macro USE_HIP: `make HIP=1` and the CMake option define it
    (they defined __HIP_PLATFORM_AMD__ only: 'cuda_runtime.h' file not
    found), with the ROCm 6.4 chroot's own make, cmake and hipcc."""
    oracle = require_hip_oracle("rocm-6.4")
    required(oracle, "cmake", "make")
    source = compat_project("vector_add", tmp_path / "src", oracle.offload_archs, "USE_HIP")
    assert "#if defined(USE_HIP)" in (source / "hip_compat.h").read_text()
    proc = run(oracle.command("make", "HIP=1"), source, oracle.environ())
    assert proc.returncode == 0, tail(proc, 40)
    assert executables(source) == {"vector_add"}
    args, env = cmake_configure_args(oracle, tmp_path, [], False)
    build = tmp_path / "build"
    switch = project_switch("vector_add")
    configure = run(oracle.command("cmake", "-S", str(source), "-B", str(build),
                                   f"-D{switch}=ON", *args), tmp_path, env)
    assert configure.returncode == 0, tail(configure, 60)
    proc = run(oracle.command("cmake", "--build", str(build), "--verbose"), tmp_path, env)
    assert proc.returncode == 0, tail(proc, 60)
    assert "-DUSE_HIP=1" in proc.stdout
    assert executables(build) == {"vector_add"}


def test_rewriting_a_compat_tree_is_refused_and_it_still_builds(tmp_path: Path):
    """`hipport convert` (rewrite) over a compat tree: refused, so its
    CMake project still configures and builds with CMake 4 (the rewrite made
    the else() branch `project(... HIP)` without LANGUAGE HIP on the
    sources: 'Cannot determine link language for target')."""
    from click.testing import CliRunner

    from hipport.cli import cli

    oracle = require_hip_oracle("rocm-6.4")
    required(oracle, "cmake", "make")
    source = compat_project("vector_add", tmp_path / "src", oracle.offload_archs)
    result = CliRunner().invoke(cli, ["convert", str(source), "--in-place"])
    assert result.exit_code == 2, result.output
    assert "--strategy compat" in result.stderr
    args, env = cmake_configure_args(oracle, tmp_path, [], False)
    for switch in ("ON", "OFF"):
        build = tmp_path / f"build-{switch}"
        configure = run(oracle.command("cmake", "-S", str(source), "-B", str(build),
                                       f"-D{project_switch('vector_add')}={switch}", *args),
                        tmp_path, env)
        if switch == "OFF":  # the chroot has no nvcc: CMake stops at the CUDA compiler
            said = configure.stdout + configure.stderr
            assert "CMakeDetermineCUDACompiler" in said, tail(configure, 60)
            assert "Cannot determine link language" not in said
            continue
        assert configure.returncode == 0, tail(configure, 60)
        proc = run(oracle.command("cmake", "--build", str(build)), tmp_path, env)
        assert proc.returncode == 0, tail(proc, 60)
        assert executables(build) == {"vector_add"}


# --------------------------------------------------------------- CUDA side --
def _generated(build: Path, source: Path) -> dict[str, str]:
    """What CMake will run: compile_commands.json and each target's compile
    flags and link line, with the two trees' own paths made alike."""
    files = [build / "compile_commands.json",
             *sorted(build.glob("CMakeFiles/*.dir/flags.make")),
             *sorted(build.glob("CMakeFiles/*.dir/link.txt")),
             *sorted(build.glob("CMakeFiles/*.dir/includes_CUDA.rsp"))]
    out = {}
    for f in files:
        text = f.read_text().replace(str(build), "<build>").replace(str(source), "<src>")
        out[str(f.relative_to(build))] = text
    # CMake orders the entries differently from one build directory to another.
    entries = sorted(json.dumps(e, sort_keys=True) for e in json.loads(out.pop(files[0].name)))
    assert entries, "no compile commands"
    out[files[0].name] = "\n".join(entries)
    return out


# The CUDA toolkit here has the runtime but not the math libraries (their
# wheels have no CMake files): both trees get the same stand-in targets.
STAND_INS = ("cublas", "cufft", "curand", "cusparse", "cusolver")


def _stand_ins(tmp: Path) -> Path:
    path = tmp / "cuda-library-stand-ins.cmake"
    path.write_text("".join(f"if(NOT TARGET CUDA::{lib})\n  add_library(CUDA::{lib} INTERFACE "
                            "IMPORTED)\nendif()\n" for lib in STAND_INS))
    return path


@pytest.mark.parametrize("name", ALL)
def test_cmake_option_off_is_the_cuda_build(name: str, tmp_path: Path):
    if not (EXAMPLES / name / "CMakeLists.txt").exists():
        pytest.skip("no CMakeLists.txt")
    if shutil.which("cmake") is None:
        missing("cmake not found")
    nvcc = require_nvcc()
    original = tmp_path / "original"
    shutil.copytree(EXAMPLES / name, original)
    converted = compat_project(name, tmp_path / "compat")
    for f in original.glob("*.cu*"):  # the sources are not what is compared
        shutil.copy(f, converted / f.name)
    generated = []
    for source in (original, converted):
        build = tmp_path / f"build-{source.name}"
        proc = subprocess.run(["cmake", "-S", str(source), "-B", str(build),
                               f"-DCMAKE_CUDA_COMPILER={nvcc}",
                               "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                               f"-DCMAKE_PROJECT_INCLUDE={_stand_ins(tmp_path)}"],
                              capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, tail(proc, 40)
        generated.append(_generated(build, source))
    assert generated[0] == generated[1]
    assert "-DCMAKE_" not in json.dumps(generated[1])  # nothing of the HIP side


@pytest.mark.parametrize("name", ALL)
def test_make_without_hip_is_the_cuda_build(name: str, tmp_path: Path):
    if not (EXAMPLES / name / "Makefile").exists():
        pytest.skip("no Makefile")
    if shutil.which("make") is None:
        missing("make not found")
    original = tmp_path / "original"
    shutil.copytree(EXAMPLES / name, original)
    converted = compat_project(name, tmp_path / "compat")
    dry_runs = []
    for source in (original, converted):
        proc = subprocess.run(["make", "-n", "-B"], cwd=source, capture_output=True,
                              text=True, timeout=60, check=False)
        assert proc.returncode == 0, proc.stderr
        dry_runs.append(proc.stdout)
    assert "nvcc" in dry_runs[0]
    assert dry_runs[0] == dry_runs[1]
    hip = subprocess.run(["make", "-n", "-B", "HIP=1"], cwd=converted, capture_output=True,
                         text=True, timeout=60, check=False)
    assert hip.returncode == 0 and "nvcc" not in hip.stdout and "hipcc" in hip.stdout
