"""Converted CMake projects of the shapes real ports showed (issue 32,
items 7-10 and 12) configure and build with each HIP oracle's own CMake,
with nothing passed but what docs/build-files.md tells users to pass: the
GPU targets the conversion writes, sources added from another folder, nvcc
flags, CUDA version checks, and libraries used in branches."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, executables, tail
from tests.ci import missing
from tests.toolchain import HipOracle

pytestmark = pytest.mark.slow

PROJECTS = Path(__file__).resolve().parent / "projects"


def _require_cmake(oracle: HipOracle) -> None:
    for tool in ("cmake", "make"):
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")


def _offload_archs(build: Path, target: str) -> list[str]:
    """The --offload-arch flags CMake compiles ``target``'s HIP sources with."""
    flags = (build / "CMakeFiles" / f"{target}.dir" / "flags.make").read_text()
    return re.findall(r"--offload-arch=(\S+)", flags)


def test_gpu_targets_are_the_runs_and_the_users_choice_wins(tmp_path: Path,
                                                           hip_oracle: HipOracle):
    """cuda_only sets no CUDA architectures: the converted file gives CMake
    the run's targets (it fell back to gfx906), unless the configure names
    its own."""
    _require_cmake(hip_oracle)
    source = tmp_path / "src"
    convert_project(PROJECTS / "cuda_only", source, hip_oracle)
    build = cmake_build(hip_oracle, source, tmp_path)
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert _offload_archs(tmp_path / "build", "cuda_only") == list(hip_oracle.offload_archs)
    assert executables(tmp_path / "build") == {"cuda_only"}
    (tmp_path / "own").mkdir()
    own = cmake_build(hip_oracle, source, tmp_path / "own", ("-DCMAKE_HIP_ARCHITECTURES=gfx1030",))
    assert own.proc.returncode == 0, tail(own.proc, 40)
    assert _offload_archs(tmp_path / "own" / "build", "cuda_only") == ["gfx1030"]



def test_library_used_in_a_branch_is_found_there(tmp_path: Path, hip_oracle: HipOracle):
    """branch_library finds hipFFT in its own HIP branch only: the converted
    CUDA branch (the default) linked hip::hipfft, a target CMake did not
    know there, and the generate step stopped."""
    _require_cmake(hip_oracle)
    source = tmp_path / "src"
    convert_project(PROJECTS / "branch_library", source, hip_oracle)
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n{build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    if build.objects_only:  # Debian 12: hipFFT's headers only
        assert (tmp_path / "build" / "CMakeFiles" / "branch_library.dir" / "main.cu.o").is_file()
    else:
        assert executables(tmp_path / "build") == {"branch_library"}


def test_findcudatoolkits_private_helper_no_longer_stops_the_configure(tmp_path: Path,
                                                                      hip_oracle: HipOracle):
    """toolkit_helper imports CUDA::cufilt and CUDA::nvfatbin with
    _CUDAToolkit_find_and_add_import_lib: converted, CMake stopped with
    "Unknown CMake command"; guarded (HP621), the project's own
    if(TARGET ...) fallback is taken and the program builds."""
    _require_cmake(hip_oracle)
    source = tmp_path / "src"
    convert_project(PROJECTS / "toolkit_helper", source, hip_oracle)
    assert "if(COMMAND _CUDAToolkit_find_and_add_import_lib)" in \
        (source / "CMakeLists.txt").read_text()
    build = cmake_build(hip_oracle, source, tmp_path)
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert "Unknown CMake command" not in build.proc.stdout + build.proc.stderr
    assert executables(tmp_path / "build") == {"toolkit_helper"}
