"""HP510: min/max of integers of different types in device code compare as
double under HIP; the unsafe fix casts to the type CUDA compares in."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

HEAD = ("__global__ void k(unsigned* out, int n, size_t sz, const long l, float f,\n"
        "                  unsigned* pu, long long ll, unsigned long long ull) {\n"
        "  unsigned u = threadIdx.x; int i = 3; uint32_t w = 1;\n")


def convert(expression: str, qualifier: str = "__global__", unsafe: bool = True):
    source = HEAD.replace("__global__", qualifier) + f"  out[0] = {expression};\n}}\n"
    result = convert_source(source, Settings(unsafe_fixes=unsafe))
    line = next(x for x in result.output.decode().split("\n") if "out[0] =" in x).strip()
    return line.removeprefix("out[0] = ").removesuffix(";"), \
        [f for f in result.findings if f.code == "HP510"]


@pytest.mark.parametrize("before, after", [
    pytest.param("min(u, n)", "min(u, (unsigned int)n)", id="unsigned-int"),
    pytest.param("max(n, u)", "max((unsigned int)n, u)", id="int-unsigned"),
    pytest.param("max(sz, n)", "max(sz, (unsigned long)n)", id="size_t-int"),
    pytest.param("min(n, l)", "min((long)n, l)", id="int-long"),
    pytest.param("min(u, l)", "min((long)u, l)", id="unsigned-long"),
    pytest.param("min(ll, ull)", "min((unsigned long long)ll, ull)", id="long-long"),
    pytest.param("min(u, 5)", "min(u, (unsigned int)5)", id="literal"),
    pytest.param("min((n), w)", "min((unsigned int)(n), w)", id="parenthesised"),
    pytest.param("max((int)sz, u)", "max((unsigned int)((int)sz), u)", id="cast-expression"),
    pytest.param("min(n - 1, i + u * blockDim.x)",
                 "min((unsigned int)(n - 1), i + u * blockDim.x)",
                 id="arithmetic-with-builtin-index"),
    pytest.param("max(sizeof(float) * n, i)", "max(sizeof(float) * n, (unsigned long)i)",
                 id="sizeof"),
    pytest.param("min(-1, threadIdx.x)", "min((unsigned int)-1, threadIdx.x)",
                 id="negated-literal"),
])
def test_mixed_integers_are_cast_to_cuda_s_type(before: str, after: str):
    line, findings = convert(before)
    assert line == after and len(findings) == 1 and findings[0].applied


def test_without_unsafe_fixes_it_is_reported_only():
    line, findings = convert("min(u, n)", unsafe=False)
    assert line == "min(u, n)" and len(findings) == 1 and not findings[0].applied


@pytest.mark.parametrize("expression", [
    pytest.param("min(u, w)", id="same-type-spelled-differently"),
    pytest.param("max(i, n)", id="both-int"),
    pytest.param("min(f, n)", id="float"),
    pytest.param("min(pu[0], n)", id="unknown-element-type"),
    pytest.param("max(sz, 2 * f)", id="unknown-expression-type"),
    pytest.param("max(sz, n < i)", id="comparison"),
    pytest.param("min(i, n - 1)", id="int-arithmetic"),
    pytest.param("min(threadIdx.x, u << 1)", id="shift-keeps-left-type"),
    pytest.param("min(u, 4000000000u)", id="literal-same-type"),
    pytest.param("min(u, 09)", id="not-a-literal"),
    pytest.param("min(u, 0b101)", id="binary-literal"),
    pytest.param("std::min(u, n)", id="qualified"),
    pytest.param("umin(u, n)", id="other-function"),
    pytest.param("min(u, n, i)", id="three-arguments"),
])
def test_lookalikes_are_left_alone(expression: str):
    assert convert(expression) == (expression, [])


def test_host_code_is_left_alone():
    assert convert("min(u, n)", qualifier="") == ("min(u, n)", [])


def test_a_file_defining_its_own_min_is_left_alone():
    source = "#define min(a, b) ((a) < (b) ? (a) : (b))\n" + HEAD + "  out[0] = min(u, n);\n}\n"
    result = convert_source(source, Settings(unsafe_fixes=True))
    assert b"min(u, n)" in result.output
    assert not [f for f in result.findings if f.code == "HP510"]
