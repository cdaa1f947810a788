"""Small CMake projects shaped like real ones (tests/buildfiles/projects/)
convert and build with each HIP oracle's CMake, as docs/build-files.md says:
a project that enables CUDA alone (it must gain CXX: find_package(hip)
needs it) and takes the toolkit's include folders from
CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES (hip_INCLUDE_DIRS once converted),
and a host-only main.cpp beside the kernels (it compiles as CXX and must
get the HIP platform from hip::host; in a Makefile, from
-D__HIP_PLATFORM_AMD__ beside HIP's include path), and a texture reader
(hipport's default targets without gfx942, which has no texture units), and
a link line with a .cu source before objects; nvcc-only flags in every
place CMake keeps them (nvcc_flags: clang rejects each one kept, and an
emptied quoted option reached it as an empty argument); CUDA version
checks (cuda_version: read as Clang's version, "CUDA 21 is too new" stopped
the configure); .cu sources in subfolders (subfolders: named from the top
through a TRANSFORMed list and a PARENT_SCOPE variable, added to the top's
target by a subfolder, and `../shared/Shared.cu` from a library's folder;
each one CMake did not see as HIP was left out of the link); a project that
keeps a HIP build of its own (hip_switch: `option(BUILD_HIP)`, `#if
defined(BUILD_HIP)` branches defining CUDA names for HIP, a header already
portable under `__HIPCC__`/`__CUDACC__`), built both ways."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.buildfiles.building import (
    cmake_build,
    convert_project,
    executables,
    make_build,
    tail,
)
from tests.ci import missing
from tests.toolchain import HipOracle

pytestmark = pytest.mark.slow

PROJECTS = Path(__file__).resolve().parent / "projects"


@pytest.mark.parametrize("name", ["cuda_only", "host_main", "texture_sampler", "nvcc_flags",
                                  "cuda_version", "subfolders"])
def test_converted_project_builds(name: str, tmp_path: Path, hip_oracle: HipOracle):
    for tool in ("cmake", "make"):
        if not hip_oracle.has_tool(tool):
            missing(f"{tool} not found for {hip_oracle.name}")
    source = tmp_path / "src"
    convert_project(PROJECTS / name, source, hip_oracle)
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n[{name}] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path / "build") == {name}


def test_converted_makefile_with_host_cxx_builds(tmp_path: Path, hip_oracle: HipOracle):
    """main.cpp compiled by $(CXX) with the toolkit's include path."""
    if not hip_oracle.has_tool("make"):
        missing(f"make not found for {hip_oracle.name}")
    convert_project(PROJECTS / "host_main_make", tmp_path, hip_oracle)
    build = make_build(hip_oracle, tmp_path)
    print(f"\n{build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path) == {"host_main_make"}


def test_converted_makefile_links_objects_with_a_cu_source(tmp_path: Path,
                                                          hip_oracle: HipOracle):
    """`$(NVCC) -o $@ $+` over main.cu and util.o: hipcc compiles every input
    after a .cu file as HIP, so the objects go first (HP616)."""
    if not hip_oracle.has_tool("make"):
        missing(f"make not found for {hip_oracle.name}")
    findings = convert_project(PROJECTS / "mixed_link", tmp_path, hip_oracle)
    assert "HP616" in {f.code for f in findings}
    build = make_build(hip_oracle, tmp_path)
    print(f"\n{build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path) == {"mixed_link"}


@pytest.mark.parametrize("defines", [(), ("-DBUILD_HIP=ON",)], ids=["default", "switch-on"])
def test_partly_ported_project_builds_with_and_without_its_switch(
        defines: tuple[str, ...], tmp_path: Path, hip_oracle: HipOracle):
    """By default the converted build compiles the converted CUDA code: gpu.h's
    own uses of the names its BUILD_HIP branch defines were left CUDA's
    ("unknown type name 'cudaError_t'"), and scale.cu, marked HIP in that
    branch only, was left out ("undefined reference to scale"); with
    -DBUILD_HIP=ON the project's HIP branches, left as written, compile with
    the converted shared code."""
    if not hip_oracle.has_tool("cmake"):
        missing(f"cmake not found for {hip_oracle.name}")
    source = tmp_path / "src"
    findings = convert_project(PROJECTS / "hip_switch", source, hip_oracle)
    assert "HP623" in {f.code for f in findings}
    original = PROJECTS / "hip_switch"
    assert (source / "portable.h").read_bytes() == (original / "portable.h").read_bytes()
    build = cmake_build(hip_oracle, source, tmp_path, defines)
    print(f"\n[hip_switch] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path / "build") == {"hip_switch"}


# Makefiles that switch between a GPU and a CPU build on a variable (issue 32):
# (project, the make variables given, whether the GPU code is built)
SWITCHES = [
    pytest.param("gpu_switch_make", (), True, id="gpu-by-default"),
    pytest.param("gpu_switch_make", ("GPU=0",), False, id="gpu-switched-off"),
    pytest.param("cuda_option_make", (), False, id="cpu-by-default"),
    pytest.param("cuda_option_make", ("USE_CUDA=1",), True, id="cuda-switched-on"),
]


@pytest.mark.parametrize("name, variables, gpu", SWITCHES)
def test_converted_makefile_builds_either_side_of_its_gpu_switch(
        name: str, variables: tuple[str, ...], gpu: bool, tmp_path: Path, hip_oracle: HipOracle):
    """The converted GPU branch compiles its .cu files with hipcc, the CPU
    branch builds as it did, and the switch keeps its default."""
    if not hip_oracle.has_tool("make"):
        missing(f"make not found for {hip_oracle.name}")
    convert_project(PROJECTS / name, tmp_path, hip_oracle)
    build = make_build(hip_oracle, tmp_path, variables)
    print(f"\n[{name}] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path) == {name}
    compiled_hip = [line for line in build.proc.stdout.splitlines()
                    if "hipcc" in line and ".cu" in line]
    assert bool(compiled_hip) == gpu, build.proc.stdout
