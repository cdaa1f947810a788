"""cuBLAS's 3M complex GEMMs: hipBLAS has only the plain complex GEMM, which
takes the same arguments and computes the same product (not bit-identically),
so the rename is offered as an unsafe fix, never applied silently."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

CALL = "cublas{t}gemm3m(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, a, a, 2, a, 2, a, a, 2);"


@pytest.mark.parametrize("t", ["C", "Z"])
@pytest.mark.parametrize("target, hip", [((7, 2), "hipblas{t}gemm("),
                                         ((6, 4), "hipblas{t}gemm_v2(")])
def test_3m_gemm_becomes_the_plain_gemm_only_with_unsafe_fixes(t: str, target: tuple[int, int],
                                                                hip: str):
    source = "void f() { " + CALL.format(t=t) + " }\n"
    safe = convert_source(source, Settings(rocm_version=target))
    assert f"cublas{t}gemm3m(" in safe.output.decode()
    offered = [f for f in safe.findings if f.code == "HP904" and not f.applied]
    assert offered and "3M" in " ".join(f.finding.message for f in offered)
    unsafe = convert_source(source, Settings(rocm_version=target, unsafe_fixes=True))
    assert hip.format(t=t) in unsafe.output.decode()


def test_a_project_function_named_like_it_is_left_alone():
    source = "void my_cublasCgemm3m(int);\nvoid f() { my_cublasCgemm3m(1); }\n"
    result = convert_source(source, Settings())
    assert result.output.decode() == source and not result.findings

