"""cuDNN calls whose MIOpen twin takes its arguments in another order, or
fewer of them, or more (docs/cudnn-miopen.md).

Each rewrite is exact or not made: an argument is dropped only when it is an
enumerator that says what MIOpen does anyway (an NCHW format, a float compute
type), and moved only when it is a plain name (moving `f(x++)` would still be
exact, C++ leaves the order of argument evaluation open, but a CUDA name
inside it would have to be renamed here).  A layout, mode or type MIOpen has
no form for is a blocker at the call (HP218); a variable hipport cannot read
leaves the call for a person (HP904)."""
from __future__ import annotations

import re

from hipport.edits import Edit
from hipport.parse.model import Reference
from hipport.rules import ArgumentRewrite, argument_rule
from hipport.rules.shapes import AppendArguments
from hipport.table.versions import Release

_NAME = re.compile(rb"[A-Za-z_]\w*")
# An operand that can be written twice without doing anything twice: a
# name, a member of one, or an integer literal.
_REPEATABLE = re.compile(rb"(?:[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*|\d+[uUlL]*)")

_NCHW, _NHWC = b"CUDNN_TENSOR_NCHW", b"CUDNN_TENSOR_NHWC"
_NO_LAYOUT = ("MIOpen has no vectorised int8 layout (`CUDNN_TENSOR_NCHW_VECT_C`): "
              "use plain int8 NCHW or NHWC tensors")
_CROSS_CORRELATION = b"CUDNN_CROSS_CORRELATION"
# The MIOpen enumerators this module writes itself: the arguments it moves
# leave the spans the renames rule converts.
_SOFTMAX = {b"CUDNN_SOFTMAX_FAST": b"MIOPEN_SOFTMAX_FAST",
            b"CUDNN_SOFTMAX_ACCURATE": b"MIOPEN_SOFTMAX_ACCURATE",
            b"CUDNN_SOFTMAX_LOG": b"MIOPEN_SOFTMAX_LOG",
            b"CUDNN_SOFTMAX_MODE_INSTANCE": b"MIOPEN_SOFTMAX_MODE_INSTANCE",
            b"CUDNN_SOFTMAX_MODE_CHANNEL": b"MIOPEN_SOFTMAX_MODE_CHANNEL"}


def _spans(data: bytes, ref: Reference, arity: int) -> list[tuple[int, int]] | None:
    """The call's argument spans without surrounding blanks, None unless it
    is a plain call with ``arity`` arguments."""
    if ref.args is None or len(ref.args) != arity:
        return None
    out = []
    for start, end in ref.args:
        text = data[start:end]
        start += len(text) - len(text.lstrip())
        end -= len(text) - len(text.rstrip())
        out.append((start, end))
    return out


def _text(data: bytes, span: tuple[int, int]) -> bytes:
    return data[span[0]:span[1]]


def _drop(spans: list[tuple[int, int]], index: int) -> Edit:
    """Deletes argument ``index`` with the comma after it."""
    return Edit(spans[index][0], spans[index + 1][0], b"")


def _format_rule(data: bytes, ref: Reference, at: int) -> ArgumentRewrite | None:
    """The tensor/filter setters: `format` at ``at``, then n (k), c, h, w."""
    spans = _spans(data, ref, 7)
    if spans is None:
        return None
    layout = _text(data, spans[at])
    if layout == _NCHW:
        return ArgumentRewrite((_drop(spans, at),), "the NCHW format was dropped: MIOpen's "
                               "4-d descriptors are NCHW")
    if layout == _NHWC:
        n, c, h, w = (_text(data, s) for s in spans[3:7])
        if not all(_REPEATABLE.fullmatch(x) for x in (c, h, w)):
            return None
        strides = b", %s * %s * %s, 1, %s * %s, %s" % (c, h, w, w, c, c)
        return ArgumentRewrite((_drop(spans, at), Edit(spans[6][1], spans[6][1], strides)),
                               "NHWC is given as strides (MIOpen reads the layout from them)",
                               hip="miopenSet4dTensorDescriptorEx")
    if layout == b"CUDNN_TENSOR_NCHW_VECT_C":
        return ArgumentRewrite((), "", blocker=_NO_LAYOUT)
    return None


@argument_rule("miopen-tensor-format")
def tensor_format(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, t, n, c, h, w)` ->
    `miopenSet4dTensorDescriptor(d, t, n, c, h, w)`; NHWC becomes
    `miopenSet4dTensorDescriptorEx` with NHWC's strides."""
    return _format_rule(data, ref, 1)


@argument_rule("miopen-filter-format")
def filter_format(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetFilter4dDescriptor(d, t, CUDNN_TENSOR_NCHW, k, c, h, w)` ->
    `miopenSet4dTensorDescriptor(d, t, k, c, h, w)`: MIOpen's filters are
    tensor descriptors (KCHW)."""
    return _format_rule(data, ref, 2)


@argument_rule("miopen-convolution-2d")
def convolution_2d(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetConvolution2dDescriptor(d, ph, pw, u, v, dh, dw, mode, type)` ->
    `miopenInitConvolutionDescriptor(d, miopenConvolution, ph, pw, u, v, dh, dw)`.

    MIOpen's `miopenConvolution` is a cross-correlation, cuDNN's
    `CUDNN_CROSS_CORRELATION`; MIOpen has no filter-flipping convolution.  It
    accumulates in float whatever the data type, which is cuDNN's
    `CUDNN_DATA_FLOAT` compute type, and has no half or double
    accumulation."""
    spans = _spans(data, ref, 9)
    if spans is None:
        return None
    mode, compute = _text(data, spans[7]), _text(data, spans[8])
    if mode == b"CUDNN_CONVOLUTION":
        return ArgumentRewrite((), "", blocker="MIOpen has no filter-flipping convolution (its "
                               "`miopenConvolution` is `CUDNN_CROSS_CORRELATION`): flip the "
                               "filter and use that mode")
    if compute in (b"CUDNN_DATA_HALF", b"CUDNN_DATA_DOUBLE"):
        return ArgumentRewrite((), "", blocker="MIOpen convolutions accumulate in float; it has "
                               f"no `{compute.decode()}` compute type")
    if mode != _CROSS_CORRELATION or compute != b"CUDNN_DATA_FLOAT":
        return None
    edits = (Edit(spans[1][0], spans[1][0], b"miopenConvolution, "),
             Edit(spans[6][1], spans[8][1], b""))
    return ArgumentRewrite(edits, "the mode comes first and the float compute type goes: "
                           "MIOpen accumulates in float")


@argument_rule("miopen-softmax")
def softmax(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSoftmaxForward(h, algo, mode, alpha, x..., beta, y...)` ->
    `miopenSoftmaxForward_V2(h, alpha, x..., beta, y..., algo, mode)`, and
    the same for the backward call."""
    if ref.args is None or len(ref.args) not in (9, 11):
        return None
    spans = _spans(data, ref, len(ref.args))
    assert spans is not None
    moved = []
    for span in spans[1:3]:
        text = _text(data, span)
        if text in _SOFTMAX:
            moved.append(_SOFTMAX[text])
        elif _NAME.fullmatch(text) and not text.upper().startswith(b"CUDNN"):
            moved.append(text)  # a variable: its declaration's type is renamed
        else:
            return None
    end = spans[-1][1]
    edits = (Edit(spans[1][0], spans[3][0], b""), Edit(end, end, b", " + b", ".join(moved)))
    return ArgumentRewrite(edits, "the algorithm and mode go last")


# A literal or a name: dropping it drops nothing the program does.
_PLAIN = re.compile(rb"(?:[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*"
                    rb"|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFlLuU]*)")
_NO_NAN_OPTION = ("MIOpen has no NaN-propagation option (its {what} follows "
                  "`CUDNN_NOT_PROPAGATE_NAN`): with that option the call converts")
# cuDNN's activation -> MIOpen's (alpha, beta, gamma), from the formulas in
# miopen.h: tanh is `beta * tanh(alpha * x)`, clipped ReLU `max(0, min(alpha,
# x))` and ELU `alpha * (e^x - 1)` below 0, with cuDNN's `coef` as alpha.
_COEF = b"coef"
_ACTIVATION = {b"CUDNN_ACTIVATION_SIGMOID": (b"0.0", b"0.0", b"0.0"),
               b"CUDNN_ACTIVATION_RELU": (b"0.0", b"0.0", b"0.0"),
               b"CUDNN_ACTIVATION_IDENTITY": (b"0.0", b"0.0", b"0.0"),
               b"CUDNN_ACTIVATION_TANH": (b"1.0", b"1.0", b"0.0"),
               b"CUDNN_ACTIVATION_CLIPPED_RELU": (_COEF, b"0.0", b"0.0"),
               b"CUDNN_ACTIVATION_ELU": (_COEF, b"0.0", b"0.0")}


@argument_rule("miopen-activation")
def activation(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetActivationDescriptor(d, mode, nan, coef)` ->
    `miopenSetActivationDescriptor(d, mode, alpha, beta, gamma)`: the
    parameters of MIOpen's formula for that mode, cuDNN's `coef` as alpha of
    the clipped ReLU (its ceiling) and of ELU."""
    spans = _spans(data, ref, 4)
    if spans is None:
        return None
    mode, nan, coef = (_text(data, s) for s in spans[1:4])
    if mode.startswith(b"CUDNN_ACTIVATION_") and mode not in _ACTIVATION:
        return ArgumentRewrite((), "", blocker=f"MIOpen has no `{mode.decode()}` activation")
    if mode not in _ACTIVATION or not _PLAIN.fullmatch(coef):
        return None
    if nan != b"CUDNN_NOT_PROPAGATE_NAN":
        return _nan_blocker(nan, "activation")
    parameters = b", ".join(coef if p is _COEF else p for p in _ACTIVATION[mode])
    # Deleted, then written anew: what a deletion covers is not renamed as well.
    end = spans[3][1]
    return ArgumentRewrite((Edit(spans[2][0], end, b""), Edit(end, end, parameters)),
                           "MIOpen's alpha, beta and gamma for this mode replace the NaN option "
                           "and coef")


def _nan_blocker(nan: bytes, what: str) -> ArgumentRewrite | None:
    if nan != b"CUDNN_PROPAGATE_NAN":
        return None  # a variable: which option it holds is for a person to read
    return ArgumentRewrite((), "", blocker=_NO_NAN_OPTION.format(what=what))


@argument_rule("miopen-pooling-2d")
def pooling_2d(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetPooling2dDescriptor(d, mode, nan, wh, ww, ph, pw, sh, sw)` ->
    `miopenSet2dPoolingDescriptor(d, mode, wh, ww, ph, pw, sh, sw)`."""
    spans = _spans(data, ref, 9)
    if spans is None:
        return None
    nan = _text(data, spans[2])
    if nan != b"CUDNN_NOT_PROPAGATE_NAN":
        return _nan_blocker(nan, "max pooling")
    return ArgumentRewrite((_drop(spans, 2),), "the NaN option was dropped")


def _append(data: bytes, spans: list[tuple[int, int]], shape: AppendArguments,
            detail: str) -> ArgumentRewrite:
    end = spans[-1][1]
    added = ", ".join(("", *shape.arguments)).encode()
    return ArgumentRewrite((Edit(end, end, added),), detail)


# What MIOpen's calls take besides cuDNN's, the same for every call (so the
# compat header's macros append them too).
_NO_BACKWARD = AppendArguments(("false", "NULL", "0"))
_PLAIN_DROPOUT = AppendArguments(("false", "false", "MIOPEN_RNG_PSEUDO_XORWOW"))


@argument_rule("miopen-pooling-forward", _NO_BACKWARD)
def pooling_forward(data: bytes, ref: Reference,
                    target: Release | None) -> ArgumentRewrite | None:
    """`cudnnPoolingForward(h, d, alpha, xd, x, beta, yd, y)` ->
    `miopenPoolingForward(h, d, alpha, xd, x, beta, yd, y, false, NULL, 0)`:
    MIOpen keeps the indices of a max pooling for the backward pass only
    when asked to (`do_backward`, with a workspace); the forward pass alone
    needs neither."""
    spans = _spans(data, ref, 8)
    if spans is None:
        return None
    return _append(data, spans, _NO_BACKWARD,
                   "no workspace for a backward pass (`do_backward` false)")



@argument_rule("miopen-dropout-descriptor", _PLAIN_DROPOUT)
def dropout_descriptor(data: bytes, ref: Reference,
                       target: Release | None) -> ArgumentRewrite | None:
    """`cudnnSetDropoutDescriptor(d, h, p, states, size, seed)` -> MIOpen's with
    `false, false, MIOPEN_RNG_PSEUDO_XORWOW`: no saved mask, states not
    evolved between calls, and MIOpen's one generator."""
    spans = _spans(data, ref, 6)
    if spans is None:
        return None
    return _append(data, spans, _PLAIN_DROPOUT, "no mask kept, MIOpen's XORWOW generator")


@argument_rule("miopen-dropout")
def dropout(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    """`cudnnDropoutForward(h, d, xd, x, yd, y, r, n)` ->
    `miopenDropoutForward(h, d, xd, xd, x, yd, y, r, n)`: MIOpen's noise shape
    is the input's (cuDNN drops each element alone); the same for the
    backward call with the gradient's descriptor."""
    spans = _spans(data, ref, 8)
    if spans is None:
        return None
    shape = _text(data, spans[2])
    if not _REPEATABLE.fullmatch(shape) or shape.upper().startswith(b"CUDNN"):
        return None
    return ArgumentRewrite((Edit(spans[2][0], spans[2][0], shape + b", "),),
                           "the input's descriptor is the noise shape")


@argument_rule("miopen-workspace-size")
def workspace_size(data: bytes, ref: Reference,
                   target: Release | None) -> ArgumentRewrite | None:
    """`cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &n)` ->
    `miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd, &n)`, and the
    backward-data and backward-weights queries alike: the first two
    descriptors swap and the algorithm goes (MIOpen's size serves its find
    step and every algorithm that returns, so it is at least cuDNN's)."""
    spans = _spans(data, ref, 7)
    if spans is None:
        return None
    first, second, algo = (_text(data, s) for s in (spans[1], spans[2], spans[5]))
    if not all(_REPEATABLE.fullmatch(x) and not x.upper().startswith(b"CUDNN")
               for x in (first, second)) or not _PLAIN.fullmatch(algo):
        return None
    edits = (Edit(spans[1][0], spans[1][1], second), Edit(spans[2][0], spans[2][1], first),
             _drop(spans, 5))
    return ArgumentRewrite(edits, "the descriptors swap and the algorithm goes")
