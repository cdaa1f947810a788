"""cuDNN -> MIOpen (issue 34 §2): the exact renames, the argument rules of
hipport/rules/miopen.py, each with a call it rewrites and a look-alike it
must leave alone, and the blockers (HP218) where MIOpen has no form."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from hipport.table import bundled_table
from hipport.table.schema import CAST_RULE


def convert(body: str, **settings) -> tuple[str, list]:
    source = f"#include <cudnn.h>\nvoid f() {{\n  {body}\n}}\n"
    result = convert_source(source, Settings(**settings))
    out = result.output.decode()
    return out.split("{\n  ", 1)[1].rsplit("\n}", 1)[0], result.findings


def codes(findings: list, name: str) -> list[str]:
    return [f.code for f in findings if f.finding.cuda_name == name]


REWRITES = [
    pytest.param("cudnnCreate(&h); cudnnSetStream(h, s); cudnnDestroy(h);",
                 "miopenCreate(&h); miopenSetStream(h, s); miopenDestroy(h);", id="handle"),
    pytest.param("cudnnStatus_t st = CUDNN_STATUS_BAD_PARAM;",
                 "miopenStatus_t st = miopenStatusBadParm;", id="status"),
    pytest.param("cudnnFilterDescriptor_t w; cudnnCreateFilterDescriptor(&w);",
                 "miopenTensorDescriptor_t w; miopenCreateTensorDescriptor(&w);",
                 id="filter-is-a-tensor"),
    pytest.param("cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);",
                 "miopenSet4dTensorDescriptor(x, miopenFloat, n, c, h, w);", id="tensor-nchw"),
    pytest.param("cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, n, c, h, w);",
                 "miopenSet4dTensorDescriptorEx(x, miopenHalf, n, c, h, w, "
                 "c * h * w, 1, w * c, c);",
                 id="tensor-nhwc-strides"),
    pytest.param("cudnnSetFilter4dDescriptor(f, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, 3, 3);",
                 "miopenSet4dTensorDescriptor(f, miopenFloat, k, c, 3, 3);", id="filter-nchw"),
    pytest.param("cudnnSetConvolution2dDescriptor(d, 1, 2, 3, 4, 5, 6, CUDNN_CROSS_CORRELATION, "
                 "CUDNN_DATA_FLOAT);",
                 "miopenInitConvolutionDescriptor(d, miopenConvolution, 1, 2, 3, 4, 5, 6);",
                 id="convolution-2d"),
    pytest.param("cudnnSoftmaxForward(h, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &a, x, p, "
                 "&b, y, q);",
                 "miopenSoftmaxForward_V2(h, &a, x, p, &b, y, q, MIOPEN_SOFTMAX_LOG, "
                 "MIOPEN_SOFTMAX_MODE_INSTANCE);", id="softmax-literals"),
    pytest.param("cudnnSoftmaxBackward(h, algo, mode, &a, y, p, dy, dp, &b, dx, dq);",
                 "miopenSoftmaxBackward_V2(h, &a, y, p, dy, dp, &b, dx, dq, algo, mode);",
                 id="softmax-variables"),
    pytest.param("cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, "
                 "0.0);",
                 "miopenSetActivationDescriptor(d, miopenActivationTANH, 1.0, 1.0, 0.0);",
                 id="activation-tanh"),
    pytest.param("cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_ELU, CUDNN_NOT_PROPAGATE_NAN, "
                 "alpha);",
                 "miopenSetActivationDescriptor(d, miopenActivationELU, alpha, 0.0, 0.0);",
                 id="activation-elu-coef"),
    pytest.param("cudnnSetPooling2dDescriptor(p, CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, "
                 "CUDNN_NOT_PROPAGATE_NAN, 3, 3, 1, 1, 2, 2);",
                 "miopenSet2dPoolingDescriptor(p, miopenPoolingAverageInclusive, "
                 "3, 3, 1, 1, 2, 2);",
                 id="pooling-2d"),
    pytest.param("cudnnPoolingForward(h, p, &a, x, in, &b, y, out);",
                 "miopenPoolingForward(h, p, &a, x, in, &b, y, out, false, NULL, 0);",
                 id="pooling-forward"),
    pytest.param("cudnnSetDropoutDescriptor(d, h, 0.5f, states, size, 42ULL);",
                 "miopenSetDropoutDescriptor(d, h, 0.5f, states, size, 42ULL, false, false, "
                 "MIOPEN_RNG_PSEUDO_XORWOW);", id="dropout-descriptor"),
    pytest.param("cudnnDropoutForward(h, d, xd, x, yd, y, reserve, n);",
                 "miopenDropoutForward(h, d, xd, xd, x, yd, y, reserve, n);",
                 id="dropout-noise-shape"),
]


@pytest.mark.parametrize(("cuda", "hip"), REWRITES)
def test_exact_cudnn_calls_become_miopen_calls(cuda, hip):
    out, findings = convert(cuda)
    assert out == hip
    cudnn = [f for f in findings if f.code != "HP302"]  # the include
    assert {f.code for f in cudnn} == {"HP211"} and all(f.applied for f in cudnn)


LEFT = [
    # A layout, mode or option held in a variable: which one it is is for a person.
    pytest.param("cudnnSetTensor4dDescriptor(x, fmt, CUDNN_DATA_FLOAT, n, c, h, w);",
                 "cudnnSetTensor4dDescriptor", id="tensor-format-variable"),
    pytest.param("cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, "
                 "n, c++, h, w);",
                 "cudnnSetTensor4dDescriptor", id="nhwc-stride-with-side-effect"),
    pytest.param("cudnnSetConvolution2dDescriptor(d, 1, 1, 1, 1, 1, 1, mode, CUDNN_DATA_FLOAT);",
                 "cudnnSetConvolution2dDescriptor", id="convolution-mode-variable"),
    pytest.param("cudnnSoftmaxForward(h, pick(), CUDNN_SOFTMAX_MODE_CHANNEL, &a, x, p, &b, y, q);",
                 "cudnnSoftmaxForward", id="softmax-algorithm-expression"),
    pytest.param("cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, "
                 "next());", "cudnnSetActivationDescriptor", id="activation-coef-call"),
    pytest.param("cudnnDropoutBackward(h, d, descs[i++], dy, dxd, dx, reserve, n);",
                 "cudnnDropoutBackward", id="dropout-shape-with-side-effect"),
]


@pytest.mark.parametrize(("cuda", "name"), LEFT)
def test_calls_a_rule_cannot_read_are_left_for_a_person(cuda, name):
    out, findings = convert(cuda)
    assert out.startswith(name + "(")
    assert codes(findings, name) == ["HP904"]


BLOCKED = [
    pytest.param("cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, "
                 "n, c, h, w);", "cudnnSetTensor4dDescriptor", "vectorised int8", id="nchw-vect-c"),
    pytest.param("cudnnSetFilter4dDescriptor(f, CUDNN_DATA_INT8x32, CUDNN_TENSOR_NCHW_VECT_C, "
                 "k, c, 3, 3);", "cudnnSetFilter4dDescriptor", "vectorised int8",
                 id="filter-nchw-vect-c"),
    pytest.param("cudnnSetConvolution2dDescriptor(d, 1, 1, 1, 1, 1, 1, CUDNN_CONVOLUTION, "
                 "CUDNN_DATA_FLOAT);", "cudnnSetConvolution2dDescriptor", "filter-flipping",
                 id="true-convolution"),
    pytest.param("cudnnSetConvolution2dDescriptor(d, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, "
                 "CUDNN_DATA_HALF);", "cudnnSetConvolution2dDescriptor", "accumulate in float",
                 id="half-accumulation"),
    pytest.param("cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_SWISH, CUDNN_NOT_PROPAGATE_NAN, "
                 "1.0);", "cudnnSetActivationDescriptor", "no `CUDNN_ACTIVATION_SWISH` activation",
                 id="activation-mode-miopen-lacks"),
    pytest.param("cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, "
                 "0.0);",
                 "cudnnSetActivationDescriptor", "NaN-propagation", id="activation-propagate-nan"),
    pytest.param("cudnnSetPooling2dDescriptor(p, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, "
                 "2, 2, 0, 0, 2, 2);", "cudnnSetPooling2dDescriptor", "NaN-propagation",
                 id="pooling-propagate-nan"),
]


@pytest.mark.parametrize(("cuda", "name", "why"), BLOCKED)
def test_what_miopen_lacks_is_a_blocker_at_the_call(cuda, name, why):
    out, findings = convert(cuda)
    assert out.startswith(name + "(")
    (blocker,) = [f for f in findings if f.code == "HP218"]
    assert blocker.finding.cuda_name == name and why in blocker.finding.message
    assert blocker.finding.fix is None


def test_a_convolution_is_left_with_the_find_sequence_to_write():
    out, findings = convert("cudnnConvolutionForward(h, &a, x, p, w, q, c, algo, ws, n, &b, y, r);")
    assert out.startswith("cudnnConvolutionForward(")
    (left,) = [f for f in findings if f.finding.cuda_name == "cudnnConvolutionForward"]
    assert left.code == "HP901"
    assert "`miopenFindConvolutionForwardAlgorithm(handle, xDesc, x, wDesc, w, convDesc, yDesc, " \
           "y, 1, &count, &perf, workSpace, size, false)`" in left.finding.message


@pytest.mark.parametrize(("cuda", "hip"), [
    pytest.param("cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &n);",
                 "miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd, &n);", id="forward"),
    pytest.param("cudnnGetConvolutionBackwardDataWorkspaceSize(h, wd, dyd, cd, dxd, "
                 "CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &n);",
                 "miopenConvolutionBackwardDataGetWorkSpaceSize(h, dyd, wd, cd, dxd, &n);",
                 id="backward-data"),
])
def test_workspace_sizes_convert_only_with_unsafe_fixes(cuda, hip):
    # MIOpen's size serves every algorithm: at least cuDNN's, not equal to it.
    out, findings = convert(cuda, unsafe_fixes=True)
    assert out == hip
    left, _ = convert(cuda)
    assert left == cuda


def test_a_workspace_query_with_an_algorithm_call_is_left():
    out, findings = convert("cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, pick(), "
                            "&n);", unsafe_fixes=True)
    assert out.startswith("cudnnGetConvolutionForwardWorkspaceSize(")


LOOK_ALIKES = [
    # The project's own functions and members of the same shape are not cuDNN's.
    "net.cudnnSoftmaxForward(h, algo, mode, &a, x, p, &b, y, q);",
    "mySetTensor4dDescriptor(x, fmt, dt, n, c, h, w);",
    'puts("cudnnSetConvolution2dDescriptor(d, 1, 1, 1, 1, 1, 1, mode, t)");',
]


@pytest.mark.parametrize("body", LOOK_ALIKES)
def test_look_alikes_stay_as_they_are(body):
    out, _ = convert(body)
    assert out == body


def test_every_miopen_rule_names_a_cudnn_entry():
    named = {e.rule for e in bundled_table() if e.library == "cudnn" and e.rule} - {CAST_RULE}
    assert named == {"miopen-tensor-format", "miopen-filter-format", "miopen-convolution-2d",
                     "miopen-softmax", "miopen-activation", "miopen-pooling-2d",
                     "miopen-pooling-forward", "miopen-dropout-descriptor", "miopen-dropout",
                     "miopen-workspace-size"}
