"""nvcc's -G in a debug branch of a build file (tests/buildfiles/device_debug:
a CMake option, a Debug-configuration generator expression and a `dbg=1`
Makefile switch, all on) converts to flags hipcc takes, and the project
builds with both HIP oracles (issue 26: `-G` was kept, and ROCm 6.4's Clang
says `unsupported option '-G'`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, executables, make_build, tail
from tests.ci import missing
from tests.toolchain import HipOracle

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "device_debug"


def required(oracle: HipOracle, *tools: str) -> None:
    for tool in tools:
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")


def test_makefile_debug_switch_builds(tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "make")
    findings = convert_project(PROJECT, tmp_path, hip_oracle)
    build = make_build(hip_oracle, tmp_path)
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert "-ggdb -O0" in build.proc.stdout and "scale" in executables(tmp_path)
    assert "-G" not in (tmp_path / "Makefile").read_text()
    assert any(f.code == "HP610" and "-G -> -ggdb -O0" in f.finding.message for f in findings)


def test_cmake_debug_option_builds(tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    source = tmp_path / "src"
    convert_project(PROJECT, source, hip_oracle)
    build = cmake_build(hip_oracle, source, tmp_path)
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert "-G" not in (source / "CMakeLists.txt").read_text()
    flags = (tmp_path / "build" / "CMakeFiles" / "scale.dir" / "flags.make").read_text()
    assert "-ggdb -O0" in flags
    assert "scale" in executables(tmp_path / "build")
