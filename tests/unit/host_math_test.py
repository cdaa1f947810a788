"""HP313: `isfinite(x)` and C's other classification functions called
unqualified in host code become `std::isfinite(x)`: HIP declares only their
device overloads in the global namespace, so the host compile fails on both
oracles (llm.c's shared test helper; hipport/rules/host_math.py)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from tests.toolchain import compile_hip

HEAD = "#include <cuda_runtime.h>\n#include <cmath>\n"


def convert(source: str, name: str = "k.cu") -> tuple[str, int]:
    result = convert_source(source, name=name)
    return result.output.decode(), sum(f.code == "HP313" for f in result.findings)


@pytest.mark.parametrize("before, after", [
    pytest.param("bool h(float x) { return isfinite(x); }",
                 "bool h(float x) { return std::isfinite(x); }", id="host-function"),
    pytest.param("template <class T> bool t(const T* r) { return !isnan(r[0]); }",
                 "template <class T> bool t(const T* r) { return !std::isnan(r[0]); }",
                 id="host-template"),
    pytest.param("__host__ __device__ bool hd(double x) { return isinf(x) || signbit(x); }",
                 "__host__ __device__ bool hd(double x) { return std::isinf(x) || "
                 "std::signbit(x); }", id="host-device"),
])
def test_host_calls_are_qualified(before: str, after: str):
    output, count = convert(HEAD + before + "\n")
    assert output == HEAD.replace("cuda_runtime.h", "hip/hip_runtime.h") + after + "\n"
    assert count == after.count("std::")


@pytest.mark.parametrize("source, name", [
    pytest.param(HEAD + "__global__ void k(float* p) { p[0] = isfinite(p[1]); }\n", "k.cu",
                 id="kernel"),
    pytest.param(HEAD + "__device__ bool d(float x) { return isnan(x); }\n", "k.cu",
                 id="device-function"),
    pytest.param(HEAD + "bool h(float x) { return std::isnan(x); }\n", "k.cu", id="qualified"),
    pytest.param(HEAD + "struct M { bool isnan(float); };\nbool h(M m) { return m.isnan(1); }\n",
                 "k.cu", id="member-call"),
    pytest.param(HEAD + "static bool isnan(int v) { return v < 0; }\n"
                 "bool h(int x) { return isnan(x); }\n", "k.cu", id="own-function"),
    pytest.param("#include <cuda_runtime.h>\n#include <math.h>\n"
                 "int h(float x) { return isnan(x); }\n", "k.c", id="c-file"),
    pytest.param("#include <cuda_runtime.h>\n#include <math.h>\n"
                 "int h(float x) { return isnan(x); }\n", "k.h", id="header-that-may-be-c"),
    pytest.param("#include <math.h>\nbool h(float x) { return isnan(x); }\n", "util.cpp",
                 id="no-std-declaration"),
])
def test_left_alone(source: str, name: str):
    output, count = convert(source, name)
    assert count == 0
    assert output.count("std::") == source.count("std::")


@pytest.mark.slow
def test_the_host_compile_needs_it_on_both_oracles(tmp_path, hip_oracle):
    source = (HEAD + "template <class T> bool finite_all(const T* r, int n) {\n"
              "  for (int i = 0; i < n; i++) if (!isfinite(r[i])) return false;\n"
              "  return true;\n}\nbool check(const float* r) { return finite_all(r, 4); }\n"
              "__global__ void k(float* p) { p[0] = isnan(p[1]); }\n")
    converted = tmp_path / "converted.hip"
    converted.write_text(convert(source)[0])
    plain = tmp_path / "plain.hip"
    plain.write_text(source.replace("cuda_runtime.h", "hip/hip_runtime.h"))
    assert compile_hip(converted, oracle=hip_oracle).returncode == 0
    failed = compile_hip(plain, oracle=hip_oracle)
    assert failed.returncode != 0 and "no matching function for call to 'isfinite'" \
        in failed.stderr
