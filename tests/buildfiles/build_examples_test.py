"""Every example project converts (sources *and* build files), and the
converted project builds to executables with real tools, once per HIP
compiler (tests/toolchain.py), by the commands docs/build-files.md gives:
plain `make`, and `cmake -S . -B build && cmake --build build`, for the GPUs
that compiler can target (gfx90a; gfx90a and gfx942 from LLVM 17 on).  The
ROCm 6.4 oracle's make and cmake are the chroot's own.  What the harness adds
to those commands, and when, is in tests/buildfiles/building.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.buildfiles import detect_build_kind
from tests.buildfiles.building import cmake_build, convert_project, executables, make_build, tail
from tests.ci import missing
from tests.toolchain import ORACLE_NAMES, HipOracle

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
PROJECTS = sorted(p for p in EXAMPLES.iterdir()
                  if p.is_dir() and any(detect_build_kind(f) for f in p.iterdir()))
# The chroot oracles have every library the examples use (hipBLAS through lld),
# so everything links there; Debian 12 has hipBLAS and hipFFT as headers only.
LINKS_EVERYTHING = ORACLE_NAMES[1:]


def required(oracle: HipOracle, *tools: str) -> None:
    for tool in tools:
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_makefile_builds_with_hipcc(project: Path, tmp_path: Path,
                                              hip_oracle: HipOracle):
    required(hip_oracle, "make")
    if not (project / "Makefile").exists():
        pytest.skip("no Makefile")
    convert_project(project, tmp_path, hip_oracle)
    assert "nvcc" not in (tmp_path / "Makefile").read_text().replace("# ", "")
    build = make_build(hip_oracle, tmp_path)
    print(f"\n[{project.name}] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    if build.objects_only:
        assert hip_oracle.name not in LINKS_EVERYTHING, build.objects_only
        assert all((tmp_path / o).exists() for o in build.objects_only)
    else:
        assert executables(tmp_path), "make built no executable"


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_converted_cmake_project_builds(project: Path, tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    if not (project / "CMakeLists.txt").exists():
        pytest.skip("no CMakeLists.txt")
    source = tmp_path / "src"
    convert_project(project, source, hip_oracle)
    assert "CUDA" not in re.sub(r"#.*", "", (source / "CMakeLists.txt").read_text())
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n[{project.name}] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert "Building HIP object" in build.proc.stdout
    if build.objects_only:
        assert hip_oracle.name not in LINKS_EVERYTHING, build.objects_only
    else:
        assert executables(tmp_path / "build"), "cmake built no executable"
