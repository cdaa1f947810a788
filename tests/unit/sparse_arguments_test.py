"""cusparseSpSM_solve -> hipsparseSpSM_solve with the analysis buffer passed
last (tests/cases/libraries/sparse_triangular.cu is the rewrite, compiled on
ROCm 6.4 and 7.2); the calls it cannot complete are left for a person."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

ARGS = "h, opA, opB, alpha, A, B, C, CUDA_R_32F, alg, {descr}"
ANALYSIS = "cusparseSpSM_analysis(h, opA, opB, alpha, A, B, C, CUDA_R_32F, alg, {descr}, {buf});\n"


def convert(text: str):
    result = convert_source(text, Settings())
    return result.output.decode(), [(f.code, f.finding.message) for f in result.findings]


@pytest.mark.parametrize("buffer", ["dBuffer", "(void*)ctx.buffer", "(void *) s->work"])
def test_the_buffer_of_the_analysis_for_the_descriptor_is_passed(buffer: str):
    text = (ANALYSIS.format(descr="other", buf="wrong") + ANALYSIS.format(descr="d", buf=buffer)
            + "cusparseSpSM_solve(" + ARGS.format(descr="d") + ");\n")
    out, findings = convert(text)
    assert out.endswith("hipsparseSpSM_solve(h, opA, opB, alpha, A, B, C, HIP_R_32F, alg, d, "
                        f"{buffer});\n")
    assert any(code == "HP204" and f"`{buffer}`, passed last" in message
               for code, message in findings), findings


@pytest.mark.parametrize("text", [
    pytest.param("cusparseSpSM_solve(" + ARGS.format(descr="d") + ");\n", id="no-analysis"),
    pytest.param(ANALYSIS.format(descr="other", buf="b") + "cusparseSpSM_solve("
                 + ARGS.format(descr="d") + ");\n", id="another-descriptor"),
    pytest.param(ANALYSIS.format(descr="d", buf="bufs[i++]") + "cusparseSpSM_solve("
                 + ARGS.format(descr="d") + ");\n", id="a-buffer-not-to-repeat"),
    pytest.param("cusparseSpSM_solve(" + ARGS.format(descr="d") + ");\n"
                 + ANALYSIS.format(descr="d", buf="b"), id="analysis-after-the-solve"),
])
def test_a_solve_without_its_buffer_is_left_for_a_person(text: str):
    out, findings = convert(text)
    assert "cusparseSpSM_solve(h, opA" in out  # unchanged: the blocker says why
    assert [m for code, m in findings if code == "HP906" and "hipsparseSpSM_analysis" in m]
