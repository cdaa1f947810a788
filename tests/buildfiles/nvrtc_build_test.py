"""An NVRTC program (tests/buildfiles/projects/nvrtc_saxpy*, CMake and Make):
a shared helper header keeps the options in a `char*` array, which converts
to CUDA's `const char* const*` but not to hipRTC's `const char**`, and loads
the binary NVRTC makes with the driver API.  Converted, it compiles and links
against hipRTC with each HIP oracle's own build tools (the hipRTC of HIP 5.2
lives in libamdhip64, ROCm 6.4's in libhiprtc)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, executables, make_build, tail
from tests.ci import missing
from tests.toolchain import HipOracle, require_hip_oracle

pytestmark = pytest.mark.slow

PROJECTS = Path(__file__).resolve().parent / "projects"


def _needs(oracle: HipOracle, tool: str) -> None:
    if not oracle.has_tool(tool):
        missing(f"{tool} not found for {oracle.name}")


def _converted(name: str, out: Path, oracle: HipOracle) -> None:
    convert_project(PROJECTS / name, out, oracle)
    helpers = (out / "rtc_helpers.h").read_text()
    assert "hiprtcCompileProgram(prog, count, (const char**)opts)" in helpers
    assert '"-ffp-contract=off"' in helpers  # HP314's safe fix
    assert "hiprtcGetCode(prog, binary.data())" in helpers


def test_nvrtc_program_builds_with_cmake(tmp_path: Path, hip_oracle: HipOracle):
    _needs(hip_oracle, "cmake")
    _needs(hip_oracle, "make")
    source = tmp_path / "src"
    _converted("nvrtc_saxpy", source, hip_oracle)
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n{build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path / "build") == {"nvrtc_saxpy"}


def test_nvrtc_program_builds_with_make(tmp_path: Path):
    """ROCm 6.4 by name: a converted Makefile links -lhiprtc, which HIP 5.2 does
    not have (its hipRTC is in libamdhip64; the link names of build files do
    not follow the target release yet)."""
    oracle = require_hip_oracle("rocm-6.4")
    _needs(oracle, "make")
    _converted("nvrtc_saxpy_make", tmp_path, oracle)
    build = make_build(oracle, tmp_path)
    print(f"\n{build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path) == {"nvrtc_saxpy_make"}
