"""HP320: a `static` device variable the file's host code names
(`cudaMemcpyToSymbol(table, ...)`) loses `static` where the tree's build
compiles relocatable device code, whose device link otherwise fails with
`undefined symbol: table` (hipport/rules/rdc_static_symbols.py;
tests/buildfiles/rdc_symbol_build_test.py builds such a project)."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.buildfiles.build_facts import build_facts_for, says_rdc
from hipport.cli import cli
from hipport.settings import Settings
from tests.trees import write_tree

RDC = Settings(relocatable_device_code=True)
USE = ("__global__ void k(unsigned* o) { o[0] = table[0]; }\n"
       "void up(const unsigned* h) { cudaMemcpyToSymbol(table, h, 16); }\n")


def convert(source: str, settings: Settings = RDC, name: str = "k.cu") -> tuple[str, int]:
    result = convert_source(source, settings, name=name)
    return result.output.decode(), sum(f.code == "HP320" for f in result.findings)


@pytest.mark.parametrize("before, after", [
    pytest.param("static __constant__ unsigned int table[4];\n",
                 "__constant__ unsigned int table[4];\n", id="constant-array"),
    pytest.param("static __device__ unsigned int table[4] = {1, 2, 3, 4};\n",
                 "__device__ unsigned int table[4] = {1, 2, 3, 4};\n", id="device-initialised"),
    pytest.param("__constant__ static unsigned int table[4];\n",
                 "__constant__ unsigned int table[4];\n", id="space-first"),
    pytest.param("namespace lut {\nstatic __constant__ unsigned table[4];\n}\nusing lut::table;\n",
                 "namespace lut {\n__constant__ unsigned table[4];\n}\nusing lut::table;\n",
                 id="in-a-namespace"),
])
def test_static_symbol_under_rdc_loses_static(before: str, after: str):
    output, count = convert(before + USE)
    assert output == "#include <hip/hip_runtime.h>\n" + after + USE.replace(
        "cudaMemcpyToSymbol(table", "hipMemcpyToSymbol(HIP_SYMBOL(table)")
    assert count == 1


def test_symbol_named_through_hip_symbol_and_get_symbol_address():
    source = ("#include <hip/hip_runtime.h>\nstatic __device__ float bias;\n"
              "void f() { void* p; hipGetSymbolAddress(&p, HIP_SYMBOL(bias)); }\n")
    output, count = convert(source)
    assert "\n__device__ float bias;" in output and count == 1


@pytest.mark.parametrize("source, settings, name", [
    # no relocatable device code: each file is its own code object, static links
    pytest.param("static __constant__ unsigned int table[4];\n" + USE, Settings(), "k.cu",
                 id="no-rdc"),
    # the host never names it: the kernels' references link
    pytest.param("static __constant__ unsigned int table[4];\n"
                 "__global__ void k(unsigned* o) { o[0] = table[0]; }\n", RDC, "k.cu",
                 id="device-only"),
    # a host static of the same name is no device variable
    pytest.param("static unsigned int table[4];\n" + USE, RDC, "k.cu", id="host-static"),
    # a static device variable of another name
    pytest.param("static __constant__ unsigned int other[4];\n__constant__ unsigned table[4];\n"
                 + USE, RDC, "k.cu", id="other-name"),
    # in a header every includer would define it
    pytest.param("static __constant__ unsigned int table[4];\n" + USE, RDC, "k.cuh",
                 id="header"),
    # a static local in a function is not file scope
    pytest.param("void f(const unsigned* h) { static unsigned table[4]; "
                 "cudaMemcpyToSymbol(table, h, 16); }\n", RDC, "k.cu", id="function-local"),
])
def test_look_alikes_keep_static(source: str, settings: Settings, name: str):
    output, count = convert(source, settings, name)
    assert count == 0
    assert output.count("static") == source.count("static")


@pytest.mark.parametrize("text, rdc", [
    (b"set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION ON)", True),
    (b"set(CMAKE_CUDA_SEPARABLE_COMPILATION TRUE)", True),
    (b'set_property(TARGET t PROPERTY CUDA_SEPARABLE_COMPILATION "ON")', True),
    (b"NVCCFLAGS := -O3 -rdc=true", True),
    (b"\t$(NVCC) -dc -o $@ $<", True),
    (b"target_compile_options(t PRIVATE --relocatable-device-code=true)", True),
    (b"set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)", False),
    (b"NVCCFLAGS := -rdc=false -dcache -dc-mode", False),
    (b"add_executable(app main.cu)", False),
])
def test_what_says_rdc(text: bytes, rdc: bool):
    assert says_rdc(text) is rdc


def test_the_run_reads_rdc_from_the_build_files(tmp_path: Path):
    source = "static __constant__ unsigned int table[4];\n" + USE
    lists = ("cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX CUDA)\n"
             "add_executable(app k.cu)\n")
    on = lists + "set_target_properties(app PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"
    for name, cmake, kept in (("on", on, False), ("off", lists, True)):
        tree = write_tree(tmp_path / name, {"CMakeLists.txt": cmake, "src/k.cu": source})
        out = tmp_path / f"{name}.out"
        result = CliRunner().invoke(cli, ["convert", str(tree), "-o", str(out)],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        output = (out / "src/k.cu").read_text()
        assert ("static __constant__" in output) is kept
        assert ("HP320" in result.stderr) is not kept
    assert build_facts_for(RDC, []) is RDC
