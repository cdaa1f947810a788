"""Argument rules named by table entries (``rule:`` in mappings/*.yaml)."""
from __future__ import annotations

import re

from hipport.edits import Edit
from hipport.parse.model import Reference
from hipport.rules import ArgumentRewrite, ArgumentRule, argument_rule, entry_argument_rule
from hipport.rules.shapes import (
    CastArguments,
    DropArgument,
    FillEmptyCall,
    OtherFunctionForArity,
    WrapArgument,
)
from hipport.table.schema import CAST_RULE
from hipport.table.schema import Mapping as Entry
from hipport.table.versions import Release, release_text

# Masks meaning "every lane of the warp" (or "the lanes active here"): HIP's
# mask-less warp functions act on the active lanes of the wavefront, so
# dropping these keeps the meaning.  `FULL_MASK` and `FULL_WARP_MASK` are the
# names CUDA code gives 0xffffffff, so common that they count as spelled out.
_FULL_VALUE = rb"(?:0[xX][fF]{8}[uUlL]*|~0[uUlL]*|-1|__activemask\s*\(\s*\))"
_FULL_MASK = re.compile(rb"\(?\s*(?:" + _FULL_VALUE + rb"|FULL_MASK|FULL_WARP_MASK)\s*\)?")
_NAME = re.compile(rb"[A-Za-z_]\w*")


def macro_value(data: bytes, name: bytes) -> bytes | None:
    """What this file's `#define name VALUE` (object-like, on one line) says, or None."""
    definition = re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name)
                           + rb"[ \t]+([^\r\n]*?)[ \t]*(?://[^\r\n]*)?$", data, re.MULTILINE)
    return definition.group(1) if definition is not None else None


def _defined_as_full(data: bytes, name: bytes) -> bool:
    """``name`` is a macro this file defines as a full mask
    (`#define WARP_MASK 0xffffffff`)."""
    value = macro_value(data, name)
    return value is not None and _FULL_MASK.fullmatch(value) is not None


def is_full_mask(data: bytes, mask: bytes) -> bool:
    mask = mask.strip()
    if _FULL_MASK.fullmatch(mask) is not None:
        return True
    return _NAME.fullmatch(mask) is not None and _defined_as_full(data, mask)


@argument_rule("drop-first-argument", DropArgument(0, "mask"))
def drop_first_argument(data: bytes, ref: Reference,
                        target: Release | None) -> ArgumentRewrite | None:
    """`__shfl_down_sync(mask, v, d)` -> `__shfl_down(v, d)`: HIP's mask-less
    warp functions act on the active lanes of the wavefront.

    It is the only form that compiles on every target: HIP 5.2 has no `_sync`
    functions, and ROCm 6.2+ declares them only under
    `HIP_ENABLE_WARP_SYNC_BUILTINS` with a 64-bit mask (a `static_assert`)
    that must equal the lanes active at the call, which a CUDA mask widened to
    64 bits is not on a 64-lane wavefront.  Only a full mask says "every
    lane": a partial or unknown one (`active`, `0x0000ffff`, a variable) names
    the lanes that take part, which may be lanes diverged elsewhere (allowed
    since Volta, never converged on AMD).  Dropping it is then right only when
    exactly those lanes are active at this call, which a person has to
    confirm: the call is flagged (HP411)."""
    if not ref.args or len(ref.args) < 2:
        return None
    (first_start, first_end), (second_start, _) = ref.args[0], ref.args[1]
    mask = data[first_start:first_end]
    edits = (Edit(first_start, second_start, b""),)
    if is_full_mask(data, mask):
        return ArgumentRewrite(edits, "the mask argument was dropped")
    shown = " ".join(mask.decode("utf-8", "replace").split())
    return ArgumentRewrite(edits, "the mask argument was dropped",
                           f"the mask `{shown}` is not a full-warp mask, and "
                           f"{_no_sync_form(ref.name, target)}: the mask-less form acts on "
                           "whichever lanes are active here, so check that exactly the lanes "
                           "of the mask reach this call")


# The first ROCm release declaring the warp `_sync` functions (under
# HIP_ENABLE_WARP_SYNC_BUILTINS): amd_warp_sync_functions.h says 6.2; 5.2 and
# 5.7 have none, 6.4 has them.
_WARP_SYNC_FORMS = (6, 2)


def _no_sync_form(name: str, target: Release | None) -> str:
    """Why ``name`` cannot stay as it is on ``target``."""
    if target is not None and target < _WARP_SYNC_FORMS:
        return f"ROCm {release_text(target)} (the target) has no `{name}`"
    where = f"ROCm {release_text(target)} (the target)" if target is not None else "ROCm 6.2+"
    return (f"{where} declares `{name}` only with HIP_ENABLE_WARP_SYNC_BUILTINS defined and "
            "a 64-bit mask equal to the active lanes")


def _wrap_symbol(data: bytes, ref: Reference, index: int) -> ArgumentRewrite | None:
    if not ref.args or len(ref.args) <= index:
        return None
    start, end = ref.args[index]
    if data[start:end].lstrip().startswith(b"HIP_SYMBOL"):
        return ArgumentRewrite((), "already wrapped")
    return ArgumentRewrite((Edit(start, start, b"HIP_SYMBOL("), Edit(end, end, b")")),
                           "the symbol argument was wrapped in HIP_SYMBOL()")


@argument_rule("wrap-symbol-argument", WrapArgument(0, "HIP_SYMBOL", "symbol"))
def wrap_symbol_argument(data: bytes, ref: Reference,
                         target: Release | None) -> ArgumentRewrite | None:
    """`cudaMemcpyToSymbol(sym, ...)` -> `hipMemcpyToSymbol(HIP_SYMBOL(sym), ...)`."""
    return _wrap_symbol(data, ref, 0)


@argument_rule("wrap-second-symbol-argument", WrapArgument(1, "HIP_SYMBOL", "symbol"))
def wrap_second_symbol_argument(data: bytes, ref: Reference,
                                target: Release | None) -> ArgumentRewrite | None:
    """`cudaMemcpyFromSymbol(dst, sym, ...)` -> `hipMemcpyFromSymbol(dst, HIP_SYMBOL(sym), ...)`;
    likewise cudaGetSymbolAddress/cudaGetSymbolSize, whose symbol comes second."""
    return _wrap_symbol(data, ref, 1)


_EMPTY_CALL = re.compile(rb"\s*\(\s*\)")


@argument_rule("activemask-as-ballot", FillEmptyCall("1"))
def activemask_as_ballot(data: bytes, ref: Reference,
                         target: Release | None) -> ArgumentRewrite | None:
    """`__activemask()` -> `__ballot(1)`: the mask of the active lanes, which is
    what ROCm 6.2+'s own `__activemask` (behind a macro) returns."""
    if ref.args != ():
        return None
    call = _EMPTY_CALL.match(data, ref.end)
    if call is None:
        return None
    close = call.end() - 1
    return ArgumentRewrite((Edit(close, close, b"1"),), "the call became __ballot(1)")


# CUDA's C++ overloads that HIP lacks (docs/cxx-overloads.md): cuda_runtime.h
# declares `template <class T> cudaX(T** p, ...)` and `cudaFuncX(T* kernel,
# ...)` beside the C functions taking `void**` and `const void*`; HIP declares
# only some.  Where the target has no such overload the argument is cast to
# what the C function takes, which is harmless when it already has that type
# (tree-sitter cannot tell: `&p` is `T**` for any `T* p`).
_VOID_CAST = rb"(?:const\s+)?void\s*(?:const\s*)?\*\s*(?:const\s*)?"
_CAST_TO = {
    b"void**": re.compile(rb"\s*(?:\(\s*" + _VOID_CAST + rb"\*\s*\)|(?:reinterpret|static)_cast"
                          rb"\s*<\s*" + _VOID_CAST + rb"\*\s*>)"),
    b"const void*": re.compile(rb"\s*(?:\(\s*" + _VOID_CAST + rb"\)|(?:reinterpret|static)_cast"
                               rb"\s*<\s*" + _VOID_CAST + rb">)"),
}
# An operand a C cast binds to as it stands: `&p`, `ptrs[i]`, `s.p`, `k<T, 4>`.
_SIMPLE_OPERAND = re.compile(rb"\s*&?\s*[A-Za-z_][\w:]*(?:\s*(?:<[^<>;()]*>|\[[^][]*\]|\.|->)"
                             rb"\s*[A-Za-z_]?\w*)*\s*")


_NULL_POINTER = re.compile(rb"\s*(?:NULL|nullptr|0)\s*")
_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth")


def _already(to: bytes) -> re.Pattern[bytes]:
    """An argument that already starts with a cast to ``to``'s base type."""
    base = re.escape(to.split(b"*")[0].replace(b"const ", b"").strip())
    return re.compile(rb"\s*(?:\(\s*(?:const\s+)?" + base + rb"\b|(?:reinterpret|static)_cast"
                      rb"\s*<\s*(?:const\s+)?" + base + rb"\b)")


def _cast_arguments(data: bytes, ref: Reference, casts: dict[int, bytes],
                    why: str) -> ArgumentRewrite:
    edits: list[Edit] = []
    cast: list[str] = []
    for index, to in casts.items():
        if not ref.args or len(ref.args) <= index:
            continue
        start, end = ref.args[index]
        argument = data[start:end]
        if (_CAST_TO[to] if to in _CAST_TO else _already(to)).match(argument) \
                or _NULL_POINTER.fullmatch(argument):
            continue  # a null pointer constant converts to any pointer type
        while start < end and data[start:start + 1].isspace():
            start += 1
        if _SIMPLE_OPERAND.fullmatch(argument):
            edits.append(Edit(start, start, b"(" + to + b")"))
        else:
            edits += (Edit(start, start, b"(" + to + b")("), Edit(end, end, b")"))
        cast.append(_ORDINAL[index])
    if not edits:
        return ArgumentRewrite((), "")
    what = cast[0] if len(cast) == 1 else ", ".join(cast[:-1]) + " and " + cast[-1]
    targets = sorted({f"`{to.decode()}`" for to in casts.values()})
    were = " was" if len(cast) == 1 else "s were"
    return ArgumentRewrite(tuple(edits), f"the {what} argument{were} cast to "
                           f"{' / '.join(targets)}: {why}")


# cuBLAS's half-precision calls take `__half*`; hipBLAS's take `hipblasHalf*`,
# `uint16_t` unless HIPBLAS_USE_HIP_HALF is defined (hipBLAS 0.54 of ROCm 5.x
# and 2.4 of ROCm 6.4 alike): the same 16 bits, so the pointer is cast.
_HALF, _CONST_HALF = b"hipblasHalf*", b"const hipblasHalf*"
_HALF_WHY = "hipBLAS takes `hipblasHalf` (`uint16_t`), the bits of a `__half`"
_HALF_GEMM = {6: _CONST_HALF, 7: _CONST_HALF, 9: _CONST_HALF, 11: _CONST_HALF, 12: _HALF}
_HALF_GEMM_BATCHED = {6: _CONST_HALF, 7: b"const hipblasHalf* const*",
                      9: b"const hipblasHalf* const*", 11: _CONST_HALF,
                      12: b"hipblasHalf* const*"}
_HALF_GEMM_STRIDED = {6: _CONST_HALF, 7: _CONST_HALF, 10: _CONST_HALF, 13: _CONST_HALF,
                      14: _HALF}
_VOID_OUT = {0: b"void**"}
_KERNEL = {0: b"const void*"}
_SECOND_KERNEL = {1: b"const void*"}


def _cast_shape(arity: int | None, casts: dict[int, bytes]) -> CastArguments:
    return CastArguments(arity, tuple((i, to.decode()) for i, to in sorted(casts.items())))


# The first release whose hip_runtime_api.h declares `template <class T>
# hipMallocPitch(T**, ...)` (and hipHostAlloc): not 5.2 or 5.7, 6.4 does.
_TEMPLATE_PITCH = (6, 4)


@argument_rule("void-pointer-out-argument", _cast_shape(None, _VOID_OUT))
def void_pointer_out_argument(data: bytes, ref: Reference,
                              target: Release | None) -> ArgumentRewrite | None:
    """`cudaHostGetDevicePointer(&p, h, 0)` -> `hipHostGetDevicePointer((void**)&p, h, 0)`:
    no ROCm release checked has the `T**` overload."""
    return _cast_arguments(data, ref, _VOID_OUT, "HIP has no `T**` overload")


@argument_rule("void-pointer-out-argument-before-6.4", _cast_shape(None, _VOID_OUT))
def void_pointer_out_argument_before_64(data: bytes, ref: Reference,
                                        target: Release | None) -> ArgumentRewrite | None:
    """`cudaMallocPitch(&p, ...)`: ROCm 6.4 has the `T**` overload, 5.2 and 5.7 do not."""
    if target is not None and target >= _TEMPLATE_PITCH:
        return ArgumentRewrite((), "")
    where = "HIP before ROCm 6.4" if target is None else \
        f"ROCm {release_text(target)}, the target,"
    return _cast_arguments(data, ref, _VOID_OUT, f"{where} has no `T**` overload")


@argument_rule("kernel-as-void-pointer", _cast_shape(None, _KERNEL))
def kernel_as_void_pointer(data: bytes, ref: Reference,
                           target: Release | None) -> ArgumentRewrite | None:
    """`cudaFuncSetAttribute(kernel, ...)` -> `hipFuncSetAttribute((const void*)kernel, ...)`:
    HIP takes the kernel only as `const void*`."""
    return _cast_arguments(data, ref, _KERNEL, "HIP takes the kernel as `const void*`")


@argument_rule("second-kernel-as-void-pointer", _cast_shape(2, _SECOND_KERNEL))
def second_kernel_as_void_pointer(data: bytes, ref: Reference,
                                  target: Release | None) -> ArgumentRewrite | None:
    """`cudaFuncGetAttributes(&a, kernel)` -> `hipFuncGetAttributes(&a, (const void*)kernel)`."""
    return _cast_arguments(data, ref, _SECOND_KERNEL, "HIP takes the kernel as `const void*`")


# Calls whose HIP form is another function for one number of arguments (the
# compat header picks it by counting them).
_EVENT_WITH_FLAGS = OtherFunctionForArity(2, "hipEventCreateWithFlags")
_GRAPH_WITH_FLAGS = OtherFunctionForArity(3, "hipGraphInstantiateWithFlags")


def _with_flags(ref: Reference, shape: OtherFunctionForArity) -> ArgumentRewrite:
    arity, hip = shape.arity, shape.other
    if ref.args is not None and len(ref.args) == arity:
        return ArgumentRewrite((), f"the {arity}-argument overload is `{hip}` in HIP", hip=hip)
    return ArgumentRewrite((), "")


@argument_rule("event-create-with-flags", _EVENT_WITH_FLAGS)
def event_create_with_flags(data: bytes, ref: Reference,
                            target: Release | None) -> ArgumentRewrite | None:
    """`cudaEventCreate(&e, flags)`, CUDA's C++ overload -> `hipEventCreateWithFlags(&e, flags)`."""
    return _with_flags(ref, _EVENT_WITH_FLAGS)


@argument_rule("graph-instantiate-with-flags", _GRAPH_WITH_FLAGS)
def graph_instantiate_with_flags(data: bytes, ref: Reference,
                                 target: Release | None) -> ArgumentRewrite | None:
    """`cudaGraphInstantiate(&exec, graph, flags)` (CUDA 12's C form; the 5-argument one is
    the C++ overload) -> `hipGraphInstantiateWithFlags`: HIP has only the 5-argument form."""
    return _with_flags(ref, _GRAPH_WITH_FLAGS)


@argument_rule("half-gemm-arguments", _cast_shape(14, _HALF_GEMM))
def half_gemm_arguments(data: bytes, ref: Reference,
                        target: Release | None) -> ArgumentRewrite | None:
    """`cublasHgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)`."""
    return _cast_arguments(data, ref, _HALF_GEMM, _HALF_WHY)


@argument_rule("half-gemm-batched-arguments", _cast_shape(15, _HALF_GEMM_BATCHED))
def half_gemm_batched_arguments(data: bytes, ref: Reference,
                                target: Release | None) -> ArgumentRewrite | None:
    """`cublasHgemmBatched(h, ta, tb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta,
    Carray, ldc, count)`: the arrays are of pointers."""
    return _cast_arguments(data, ref, _HALF_GEMM_BATCHED, _HALF_WHY)


@argument_rule("half-gemm-strided-batched-arguments",
               _cast_shape(18, _HALF_GEMM_STRIDED))
def half_gemm_strided_batched_arguments(data: bytes, ref: Reference,
                                        target: Release | None) -> ArgumentRewrite | None:
    """`cublasHgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, strideA, B, ldb,
    strideB, beta, C, ldc, strideC, count)`."""
    return _cast_arguments(data, ref, _HALF_GEMM_STRIDED, _HALF_WHY)


@entry_argument_rule(CAST_RULE)
def cast_arguments(entry: Entry) -> ArgumentRule:
    """The entry's `casts:` (tools/catalogue/signatures.py finds them): where
    HIP declares a parameter stricter than CUDA, the argument gets the cast
    CUDA's implicit conversion made, `nvrtcCompileProgram(p, n, opts)` ->
    `hiprtcCompileProgram(p, n, (const char**)opts)`.  A C cast, valid in C
    and C++ alike; it only drops a const the callee does not write through,
    or names a pointee of the same bits."""
    casts = {index: to.encode() for index, to in entry.casts}
    why = f"`{entry.hip}` declares {'it' if len(casts) == 1 else 'them'} stricter than CUDA"

    def rewrite(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
        return _cast_arguments(data, ref, casts, why)
    return ArgumentRule(CAST_RULE, rewrite, _cast_shape(None, casts))
