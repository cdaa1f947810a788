"""`--roc` for cuSPARSE: rocSPARSE's own names (HIPIFY's ROC column checked
against ROCm 6.4's and 7.2's headers, tools/catalogue/roc_sparse.py where it
is wrong), and a finding at each call rocSPARSE takes otherwise."""
from __future__ import annotations

from dataclasses import replace

import pytest

from hipport.api import convert_source
from hipport.buildfiles import convert_build_file
from hipport.settings import Settings
from tests.cases_test import CASES, settings_for

ROC = Settings(roc=True)


def roc(body: str, settings: Settings = ROC) -> tuple[str, list[tuple[str, str]]]:
    source = f"void f(cusparseHandle_t h, cusparseMatDescr_t d, int* r) {{\n  {body}\n}}\n"
    result = convert_source(source, settings)
    line = result.output.decode().split("\n")[1].strip()
    return line, [(f.code, f.finding.message) for f in result.findings if f.code != "HP204"]


@pytest.mark.parametrize("before, after", [
    pytest.param("cusparseCreate(&h);", "rocsparse_create_handle(&h);", id="handle"),
    pytest.param("cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ONE);",
                 "rocsparse_set_mat_index_base(d, rocsparse_index_base_one);", id="descriptor"),
    pytest.param("cusparseStatus_t s = CUSPARSE_STATUS_ZERO_PIVOT;",
                 "rocsparse_status s = rocsparse_status_zero_pivot;", id="status"),
    pytest.param("cusparseXcsr2coo(h, r, 8, 4, r, CUSPARSE_INDEX_BASE_ZERO);",
                 "rocsparse_csr2coo(h, r, 8, 4, r, rocsparse_index_base_zero);", id="conversion"),
    # HIPIFY's table swaps these two; the headers say column-major is column.
    pytest.param("cusparseOrder_t o = CUSPARSE_ORDER_COL;",
                 "rocsparse_order o = rocsparse_order_column;", id="column-major"),
    pytest.param("cusparseOrder_t o = CUSPARSE_ORDER_ROW;",
                 "rocsparse_order o = rocsparse_order_row;", id="row-major"),
])
def test_rewrites(before: str, after: str):
    assert roc(before)[0] == after


def test_sliced_ell_is_rocsparse_sell_from_72_only():
    assert roc("auto f = CUSPARSE_FORMAT_SLICED_ELLPACK;",
               Settings(roc=True, rocm_version=(7, 2)))[0] == "auto f = rocsparse_format_sell;"
    line, findings = roc("auto f = CUSPARSE_FORMAT_SLICED_ELLPACK;",
                         Settings(roc=True, rocm_version=(6, 4)))
    assert line == "auto f = CUSPARSE_FORMAT_SLICED_ELLPACK;"
    assert [code for code, _ in findings] == ["HP905"]


@pytest.mark.parametrize("before, says", [
    pytest.param("cusparseCreateCsr(&m, 4, 4, 8, r, r, v, CUSPARSE_INDEX_32I, "
                 "CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);",
                 "argument 11 as `rocsparse_datatype`", id="data-type-argument"),
    pytest.param("cusparseSpMV(h, op, &a, m, x, &b, y, CUDA_R_32F, alg, buf);",
                 "rocsparse_spmv takes 12 arguments where cusparseSpMV takes 10",
                 id="generic-stage-and-buffer"),
    pytest.param("cusparseDcsrilu02_bufferSize(h, 4, 8, d, v, r, r, info, &n);",
                 "as `size_t*` where cusparseDcsrilu02_bufferSize takes `int*`",
                 id="buffer-size-width"),
])
def test_calls_rocsparse_takes_otherwise_are_findings(before: str, says: str):
    line, findings = roc(before)
    assert line.startswith(before.split("(")[0] + "(")  # the call is left for a person
    assert any(code in ("HP904", "HP902") and says in message for code, message in findings), \
        findings


@pytest.mark.parametrize("before, after", [
    pytest.param("cusparseCreate(&h);", "hipsparseCreate(&h);", id="default-mode"),
    pytest.param("cusparseOrder_t o = CUSPARSE_ORDER_COL;",
                 "hipsparseOrder_t o = HIPSPARSE_ORDER_COL;", id="default-mode-enum"),
])
def test_default_mode_is_unchanged(before: str, after: str):
    assert roc(before, Settings())[0] == after


@pytest.mark.parametrize("before", [
    pytest.param("mylib::cusparseCreate(&h);", id="user-namespace"),
    pytest.param("ctx.cusparseCreate(&h);", id="member"),
    pytest.param("rocsparse_create_handle(&h);", id="already-rocsparse"),
    pytest.param('puts("cusparseCreate failed");', id="string"),
])
def test_lookalikes_stay(before: str):
    assert roc(before)[0] == before


# ------------------------------------------------------------ build files --
def _build(text: str, kind: str, roc: bool) -> str:
    return convert_build_file(text.encode(), kind, Settings(roc=roc)).output.decode()


def test_cmake_links_rocsparse_and_rocsolver():
    text = ("find_package(CUDAToolkit REQUIRED)\n"
            "target_link_libraries(t PRIVATE CUDA::cusparse CUDA::cusolver)\n")
    assert _build(text, "cmake", True) == (
        "find_package(hip REQUIRED)\nfind_package(rocsolver REQUIRED)\n"
        "find_package(rocsparse REQUIRED)\n"
        "target_link_libraries(t PRIVATE roc::rocsparse roc::rocsolver)\n")
    assert "roc::hipsparse roc::hipsolver" in _build(text, "cmake", False)


def test_make_links_rocsparse_and_rocsolver():
    text = "LDLIBS = -lcusparse -lcusolver\n"
    assert _build(text, "make", True) == "LDLIBS = -lrocsparse -lrocsolver\n"
    assert _build(text, "make", False) == "LDLIBS = -lhipsparse -lhipsolver\n"


# ------------------------------------------------- libraries with no roc side --
@pytest.mark.parametrize("case", ["cudnn_layers.cu", "cudnn_workspace.cu"])
def test_cudnn_goes_to_miopen_in_roc_mode_too(case: str):
    """cuDNN has no roc counterpart of its own: --roc converts it to MIOpen
    exactly as the default mode does (the golden outputs of tests/cases)."""
    source = (CASES / "libraries" / case).read_bytes()
    expected = (CASES / "libraries" / case.replace(".cu", ".hip.cu")).read_text()
    for roc in (True, False):
        settings = replace(settings_for(source), roc=roc)
        assert convert_source(source, settings, name=case).output.decode() == expected
