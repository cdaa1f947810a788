"""`--roc` for cuSOLVER: rocSOLVER on a rocBLAS handle, with no workspace
arguments or size queries, and no info where its routine reports none
(hipport/rules/rocsolver_arguments.py, tools/catalogue/roc_solver.py)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.compat.header import macro
from hipport.rules import rule_for
from hipport.settings import Settings
from hipport.table import bundled_table

ROC = Settings(roc=True)


def roc(body: str, settings: Settings = ROC) -> tuple[str, list[tuple[str, str]]]:
    source = f"void f(cusolverDnHandle_t h, float* A, float* B, float* w, int* p, int* info) {{\n" \
             f"  {body}\n}}\n"
    result = convert_source(source, settings)
    line = result.output.decode().split("\n")[1].strip()
    return line, [(f.code, f.finding.message) for f in result.findings
                  if f.code != "HP204" and f.code != "HP205"]


@pytest.mark.parametrize("before, after", [
    pytest.param("cusolverDnCreate(&h);", "rocblas_create_handle(&h);", id="create"),
    pytest.param("cusolverDnSetStream(h, s);", "rocblas_set_stream(h, s);", id="stream"),
    pytest.param("cusolverDnSpotrf(h, u, 4, A, 4, w, 64, info);",
                 "rocsolver_spotrf(h, u, 4, A, 4, info);", id="potrf-workspace"),
    pytest.param("cusolverDnDgetrf(h, 4, 4, A, 4, w, p, info);",
                 "rocsolver_dgetrf(h, 4, 4, A, 4, p, info);", id="getrf-workspace"),
    pytest.param("cusolverDnSgetrf(h, 4, 4, A, 4, w, NULL, info);",
                 "rocsolver_sgetrf_npvt(h, 4, 4, A, 4, info);", id="getrf-no-pivoting"),
    pytest.param("cusolverDnSpotrfBatched(h, u, 4, As, 4, info, 8);",
                 "rocsolver_spotrf_batched(h, u, 4, As, 4, info, 8);", id="batched-same-args"),
    pytest.param("cusolverDnSgeqrf(h, 4, 4, A, 4, B, w, 64, info);",
                 "rocsolver_sgeqrf(h, 4, 4, A, 4, B);", id="geqrf-trailing-run"),
    # rocBLAS's complex types are HIP's in the converted file (the include rule
    # defines ROCM_MATHLIBS_API_USE_HIP_COMPLEX above <rocsolver/rocsolver.h>)
    pytest.param("cusolverDnCpotrf(h, u, 4, C, 4, W, 64, info);",
                 "rocsolver_cpotrf(h, u, 4, C, 4, info);", id="complex-types"),
    pytest.param("cusolverStatus_t s = CUSOLVER_STATUS_SUCCESS;",
                 "rocblas_status s = rocblas_status_success;", id="status"),
])
def test_rewrites(before: str, after: str):
    assert roc(before)[0] == after


def test_a_routine_without_info_says_so_at_the_line():
    line, findings = roc("cusolverDnSgetrs(h, t, 4, 1, A, 4, p, B, 4, info);")
    assert line == "rocsolver_sgetrs(h, t, 4, 1, A, 4, p, B, 4);"
    assert any(code == "HP411" and "`info` is no longer written" in message
               for code, message in findings), findings


@pytest.mark.parametrize("before, code, says", [
    pytest.param("cusolverDnSpotrf_bufferSize(h, u, 4, A, 4, &n);", "HP901",
                 "no workspace-size query", id="buffer-size-query"),
    pytest.param("bool z = st == CUSOLVER_STATUS_ZERO_PIVOT;", "HP901", "zero pivot in info",
                 id="status-rocsolver-never-returns"),
    pytest.param("cusolverDnSsyevd(h, j, u, 4, A, 4, B, w, 64, info);", "HP904",
                 "an array E of n elements", id="different-arguments"),
    pytest.param("cusolverDnSpotrf(h, u, 4, A, 4, ARGS);", "HP904", "not a plain call",
                 id="arguments-hidden-in-a-macro"),
])
def test_what_is_left_is_said_at_the_line(before: str, code: str, says: str):
    line, findings = roc(before)
    assert line == before  # left for a person
    assert any(c == code and says in message for c, message in findings), findings


@pytest.mark.parametrize("before, after", [
    pytest.param("cusolverDnSpotrf(h, u, 4, A, 4, w, 64, info);",
                 "hipsolverDnSpotrf(h, u, 4, A, 4, w, 64, info);", id="default-mode-hipsolver"),
    pytest.param("cusolverDnSgetrf_bufferSize(h, 4, 4, A, 4, &n);",
                 "hipsolverDnSgetrf_bufferSize(h, 4, 4, A, 4, &n);", id="default-mode-query"),
])
def test_default_mode_is_unchanged(before: str, after: str):
    assert roc(before, Settings())[0] == after


@pytest.mark.parametrize("before", [
    pytest.param("mylib::cusolverDnSpotrf(h, u, 4, A, 4, w, 64, info);", id="user-namespace"),
    pytest.param("obj.cusolverDnSgetrf(h, 4, 4, A, 4, w, p, info);", id="member"),
    pytest.param("rocsolver_spotrf(h, u, 4, A, 4, info);", id="already-rocsolver"),
])
def test_lookalikes_stay(before: str):
    assert roc(before)[0] == before


def test_compat_macro_keeps_the_arguments_rocsolver_takes():
    entry = next(m for m in bundled_table().in_mode(True) if m.cuda == "cusolverDnSpotrf")
    rule = rule_for(entry)
    assert rule is not None and rule.shape is not None
    assert macro(rule.shape, entry.cuda, entry.hip or "") == (
        "#define cusolverDnSpotrf(a0, a1, a2, a3, a4, a5, a6, a7) "
        "rocsolver_spotrf(a0, a1, a2, a3, a4, a7)")
