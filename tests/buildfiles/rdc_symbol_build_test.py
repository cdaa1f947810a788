"""Relocatable device code with a file-local table the host writes
(tests/buildfiles/rdc_symbol: `static __constant__ unsigned int table[4]`
and `cudaMemcpyToSymbol(table, ...)` in table.cu, CUDA_SEPARABLE_COMPILATION
ON in CMake, -rdc=true in the Makefile) converts and links with both HIP
oracles by `cmake -S . -B build && cmake --build build` and by `make`.
Before HP320 both device links failed: `lld: error: undefined symbol: table`.

Nothing can run without a GPU; the evidence is the link, and that the
linked code object of every GPU holds one `table`, a global symbol (the
name the host registers), and the kernel that reads it."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, make_build, run, tail
from tests.buildfiles.rdc_build_test import code_objects, elf_section, required
from tests.ci import missing
from tests.toolchain import HipOracle, require_nvcc

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "rdc_symbol"


def assert_one_table(executable: Path, oracle: HipOracle) -> None:
    entries = code_objects(elf_section(executable, ".hip_fatbin"))
    gpus = {e.rsplit("--", 1)[-1]: code for e, code in entries.items() if "amdgcn" in e}
    assert set(gpus) == set(oracle.offload_archs), sorted(entries)
    for gpu, code in gpus.items():
        assert b"_Z6lookupPj.kd" in code, f"no lookup kernel for {gpu}"
        # external linkage: the plain name, no per-file `_ZL5table` copy
        assert b"\0table\0" in code and b"_ZL5table" not in code, gpu


def test_cmake_separable_build_links_a_static_table_the_host_writes(
        tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "cmake", "make")
    source = tmp_path / "src"
    findings = convert_project(PROJECT, source, hip_oracle, rocm_version=hip_oracle.hip_version)
    assert "HP608" in {f.code for f in findings}
    assert "\n__constant__ unsigned int table[4];" in (source / "table.cu").read_text()
    build = cmake_build(hip_oracle, source, tmp_path)
    print(f"\n[rdc_symbol] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert_one_table(tmp_path / "build" / "rdc_symbol", hip_oracle)


def test_makefile_rdc_build_links_a_static_table_the_host_writes(
        tmp_path: Path, hip_oracle: HipOracle):
    required(hip_oracle, "make")
    convert_project(PROJECT, tmp_path, hip_oracle, rocm_version=hip_oracle.hip_version)
    build = make_build(hip_oracle, tmp_path)
    print(f"\n[rdc_symbol] {build.command}:\n{tail(build.proc, 10)}")
    assert build.proc.returncode == 0, tail(build.proc, 60)
    assert_one_table(tmp_path / "rdc_symbol", hip_oracle)


def test_the_cuda_project_builds_with_nvcc(tmp_path: Path):
    """The input is a real project: nvcc links the static table under -rdc=true."""
    nvcc = require_nvcc()
    make = shutil.which("make") or missing("make not found")
    plain = tmp_path / "make"
    shutil.copytree(PROJECT, plain)
    proc = run([make, f"NVCC={nvcc}"], plain, {**os.environ})
    assert proc.returncode == 0, tail(proc, 40)
    assert (plain / "rdc_symbol").is_file()
