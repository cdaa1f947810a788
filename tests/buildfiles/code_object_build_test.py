"""A driver-API program whose build makes the device code it loads
(tests/buildfiles/code_objects: `nvcc -fatbin` over CMAKE_CUDA_ARCHITECTURES
in a CMake custom command, `nvcc -cubin` and a `%.ptx: %.cu` rule in the
Makefile; main.cpp loads kernel.fatbin with cuModuleLoad) converts and
builds with both HIP oracles by `cmake -S . -B build && cmake --build build`
and by `make`.

Nothing can run without a GPU; the evidence is that each file the program
(or a user) loads by its old name is an offload bundle holding a code object
of the `scale` kernel for every GPU target, which is what hipModuleLoad
reads."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, make_build, tail
from tests.buildfiles.rdc_build_test import code_objects, required
from tests.toolchain import HipOracle

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "code_objects"
ELF_MAGIC = b"\x7fELF"


def assert_code_object(path: Path, oracle: HipOracle) -> None:
    assert path.is_file(), f"{path.name} was not built"
    entries = code_objects(path.read_bytes())  # asserts the bundle magic
    gpus = {e.rsplit("--", 1)[-1]: code for e, code in entries.items() if "amdgcn" in e}
    assert set(gpus) == set(oracle.offload_archs), (path.name, sorted(entries))
    for gpu, code in gpus.items():
        assert code.startswith(ELF_MAGIC), f"{path.name}: {gpu} holds no code object"
        assert b"scale.kd" in code, f"{path.name}: no scale kernel for {gpu}"


def test_cmake_custom_command_builds_the_code_object_the_program_loads(
        tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    source = tmp_path / "src"
    convert_project(PROJECT, source, hip_oracle, rocm_version=hip_oracle.hip_version)
    assert 'hipModuleLoad(&module, "kernel.fatbin")' in (source / "main.cpp").read_text()
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n[code_objects] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert (tmp_path / "build" / "driver_app").is_file()
    assert_code_object(tmp_path / "build" / "kernel.fatbin", hip_oracle)


def test_makefile_rules_build_code_objects(tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "make")
    convert_project(PROJECT, tmp_path, hip_oracle, rocm_version=hip_oracle.hip_version)
    build = make_build(hip_oracle, tmp_path)
    print(f"\n[code_objects] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    for name in ("kernel.cubin", "kernel.ptx"):
        assert_code_object(tmp_path / name, hip_oracle)
