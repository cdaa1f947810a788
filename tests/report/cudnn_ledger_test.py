"""The ledger's cuDNN rows (issue 34 §2): one per cuDNN function left for a
person, blocked calls (HP218) apart from the same function's converted ones,
and the library row counting MIOpen's conversions."""
from __future__ import annotations

from tests.report.helpers import report_of

SOURCE = """\
#include <cudnn.h>
void f(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
       cudnnConvolutionDescriptor_t c, const float *a, const float *p, float *q) {
  cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 8, 8);
  cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 1, 4, 8, 8);
  cudnnSetConvolution2dDescriptor(c, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  cudnnConvolutionForward(h, a, x, p, w, p, c, algo, 0, 0, a, x, q);
}
"""


def test_cudnn_rows_per_function(tmp_path):
    (tmp_path / "net.cu").write_text(SOURCE)
    report = report_of(tmp_path)
    rows = {r.cuda_name: r for r in report.ledger}
    assert set(rows) == {"cudnnSetTensor4dDescriptor", "CUDNN_TENSOR_NCHW_VECT_C",
                         "CUDNN_DATA_INT8x4", "cudnnConvolutionForward"}
    blocked = rows["cudnnSetTensor4dDescriptor"]
    assert (blocked.status, blocked.code, blocked.locations) == \
        ("unsupported", "HP218", ("net.cu:5",))  # line 4's NCHW call converted
    assert blocked.hip_name == "miopenSet4dTensorDescriptor"
    assert blocked.action.startswith("`miopenSet4dTensorDescriptor` is MIOpen's, but not")
    conv = rows["cudnnConvolutionForward"]
    assert (conv.status, conv.code, conv.hip_name) == ("unsupported", "HP901", None)
    assert "miopenFindConvolutionForwardAlgorithm(" in (conv.note or "")
    (cudnn,) = [lib for lib in report.libraries if lib.library == "cudnn"]
    assert (cudnn.rocm, cudnn.ledger_apis) == ("miopen", 4)
