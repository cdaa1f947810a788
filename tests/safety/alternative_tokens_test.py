"""CUDA calls inside code spelled with digraphs (`<% %> <: :> %:`) or
trigraphs (`??< ??>` ...) are converted and counted, and a parse error can
no longer make a call vanish as a "declaration" (docs/safety.md, "Names,
outputs and configuration")."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings


@pytest.mark.parametrize("before, after", [
    pytest.param(b"void f() <% cudaFree(0); %>\n", b"void f() <% hipFree(0); %>\n",
                 id="digraph-braces"),
    pytest.param(b"void f() ??< cudaFree(0); ??>\n", b"void f() ??< hipFree(0); ??>\n",
                 id="trigraph-braces"),
    pytest.param(b"%:include <cuda_runtime.h>\nvoid f() <% cudaDeviceSynchronize(); %>\n",
                 b"%:include <hip/hip_runtime.h>\nvoid f() <% hipDeviceSynchronize(); %>\n",
                 id="digraph-include"),
    pytest.param(b"??=include <cuda_runtime.h>\n", b"??=include <hip/hip_runtime.h>\n",
                 id="trigraph-include"),
    pytest.param(b"void g(float* p) <% cudaMemcpyToSymbol(c_w, p<:1:>, 4); %>\n",
                 b"void g(float* p) <% hipMemcpyToSymbol(HIP_SYMBOL(c_w), p<:1:>, 4); %>\n",
                 id="digraph-subscript-in-argument"),
    pytest.param(b"int main() <%\n  int* p;\n  cudaMalloc(&p, 4);\n  return 0;\n%>\n",
                 b"int main() <%\n  int* p;\n  hipMalloc(&p, 4);\n  return 0;\n%>\n",
                 id="issue-14"),
])
def test_alternative_tokens_are_converted(before: bytes, after: bytes):
    result = convert_source(before, Settings())
    assert result.output == after
    assert not [f for f in result.findings if f.code == "HP001"]  # parsed cleanly
    assert result.stats.refs_unconverted == 0 and result.stats.refs_converted >= 1


def test_launch_with_digraph_arguments():
    source = b"void g(float* p) <% k<<<1, 2>>>(p<:0:>); %>\n"
    result = convert_source(source, Settings(launch_syntax="hip"))
    assert b"hipLaunchKernelGGL(k, 1, 2, 0, 0, p<:0:>);" in result.output  # the user's spelling


def test_unmapped_api_in_digraph_code_is_reported():
    result = convert_source(b"void f() <% cudaSomethingNew(1); %>\n", Settings())
    assert [f.code for f in result.findings] == ["HP900"]
    assert result.stats.refs_unconverted == 1  # the summary cannot say 100 %


@pytest.mark.parametrize("source", [
    pytest.param(b"void f() @ cudaFree(0); }\n", id="stray-at"),
    pytest.param(b"void f() { `x` cudaFree(0); }\n", id="backquote"),
    pytest.param(b"void f() ?? cudaFree(0); ??\n", id="lone-question-marks"),
])
def test_a_call_after_a_parse_error_is_not_taken_for_a_declaration(source: bytes):
    # Error recovery reads `cudaFree(0);` as a variable declared with (0): the
    # name used to count as the project's own and vanish from every count.
    result = convert_source(source, Settings())
    assert b"hipFree(0)" in result.output
    assert result.stats.refs_converted == 1


def test_a_declaration_with_an_error_after_the_name_is_still_the_users():
    source = b"int cudaMyCounter = 1 +;\nvoid g() { cudaMyCounter = 2; }\n"
    result = convert_source(source, Settings())
    assert [f.code for f in result.findings] == ["HP001"]  # no HP900 for the user's name
