"""cuBLASLt names CUDA removed (12.0: the preference masks, cublasLt3mMode_t,
two stage counts; 13.0: the atomic-sync attributes) that older code still
uses: each is a known name with its own reason (HP903), not an unknown CUDA
name (HP900); the layout names hipBLASLt declares convert."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

PREFERENCE = b"""#include <cublasLt.h>
void prefer(cublasLtMatmulPreference_t pref, uint32_t mask, cublasLtMatrixLayout_t a) {
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MATH_MODE_MASK, &mask,
                                       sizeof(mask));
  cublasLtOrder_t order = CUBLASLT_ORDER_COL;
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order));
}
"""


def _convert(source: bytes, target=(7, 2)):
    return convert_source(source, Settings(rocm_version=target), name="lt.cu")


@pytest.mark.parametrize("name", [
    "CUBLASLT_MATMUL_PREF_MATH_MODE_MASK", "CUBLASLT_MATMUL_PREF_GAUSSIAN_MODE_MASK",
    "CUBLASLT_MATMUL_PREF_POINTER_MODE_MASK", "CUBLASLT_MATMUL_PREF_EPILOGUE_MASK",
    "CUBLASLT_MATMUL_PREF_SM_COUNT_TARGET", "CUBLASLT_POINTER_MODE_MASK_NO_FILTERING",
    "cublasLt3mMode_t", "CUBLASLT_3M_MODE_ALLOWED", "CUBLASLT_MATMUL_STAGES_16x80",
    "CUBLASLT_MATMUL_DESC_ATOMIC_SYNC_NUM_CHUNKS_D_ROWS"])
def test_a_name_cuda_removed_is_reported_with_its_reason(name):
    source = f"#include <cublasLt.h>\nint use() {{ return (int){name}; }}\n".encode()
    result = _convert(source)
    assert name in result.output.decode()
    found = [f for f in result.findings if name in f.finding.message]
    assert [f.code for f in found] == ["HP903"]
    assert "removed by CUDA 1" in found[0].finding.message
    assert "hipBLASLt" in found[0].finding.message


@pytest.mark.parametrize("target", [(6, 4), (7, 2)])
def test_the_layout_names_hipblaslt_declares_convert_beside_a_removed_one(target):
    out = _convert(PREFERENCE, target).output.decode()
    assert "hipblasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MATH_MODE_MASK," in out
    assert "hipblasLtOrder_t order = HIPBLASLT_ORDER_COL;" in out
    assert "hipblasLtMatrixLayoutSetAttribute(a, HIPBLASLT_MATRIX_LAYOUT_ORDER," in out


def test_look_alikes_of_removed_names_stay_without_a_finding():
    source = (b"struct Prefs { int CUBLASLT_MATMUL_PREF_MATH_MODE_MASK; };\n"
              b"int mask(Prefs p) { return p.CUBLASLT_MATMUL_PREF_MATH_MODE_MASK; }\n"
              b'const char* s = "CUBLASLT_3M_MODE_ALLOWED";\n'
              b"int my_cublasLt3mMode_t = 0;\n")
    result = _convert(source)
    assert result.output == source
    assert not [f for f in result.findings if f.code in {"HP900", "HP903"}]


@pytest.mark.parametrize("name", ["CUBLASLT_ORDER_COL32", "CUBLASLT_ORDER_COL32_2R_4R4",
                                  "CUBLASLT_ORDER_COL4_4R2_8C"])
def test_nvidia_tiled_orders_say_which_orders_hipblaslt_has(name):
    source = f"#include <cublasLt.h>\ncublasLtOrder_t o = {name};\n".encode()
    result = _convert(source)
    found = [f for f in result.findings if name in f.finding.message]
    assert [f.code for f in found] == ["HP901"]
    assert "COL16_4R" in found[0].finding.message
    assert name in result.output.decode()


def test_the_cuda_10_1_layout_tag_names_hipblaslt_s_opaque_type():
    result = _convert(b"#include <cublasLt.h>\nstruct cublasLtMatrixLayoutStruct* layout;\n")
    found = [f for f in result.findings if "cublasLtMatrixLayoutStruct" in f.finding.message]
    assert [f.code for f in found] == ["HP903"]
    assert "hipblasLtMatrixLayoutOpaque_t" in found[0].finding.message
