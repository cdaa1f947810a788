"""Argument rules named by table entries (``rule:`` in mappings/*.yaml)."""
from __future__ import annotations

import re

from hipport.edits import Edit
from hipport.parse.model import Reference
from hipport.rules import ArgumentRewrite, argument_rule

# Masks meaning "every lane of the warp" (or "the lanes active here"): HIP's
# mask-less warp functions act on the active lanes of the wavefront, so
# dropping these keeps the meaning.  `FULL_MASK` and `FULL_WARP_MASK` are the
# names CUDA code gives 0xffffffff, so common that they count as spelled out.
_FULL_VALUE = rb"(?:0[xX][fF]{8}[uUlL]*|~0[uUlL]*|-1|__activemask\s*\(\s*\))"
_FULL_MASK = re.compile(rb"\(?\s*(?:" + _FULL_VALUE + rb"|FULL_MASK|FULL_WARP_MASK)\s*\)?")
_NAME = re.compile(rb"[A-Za-z_]\w*")


def _defined_as_full(data: bytes, name: bytes) -> bool:
    """``name`` is a macro this file defines as a full mask
    (`#define WARP_MASK 0xffffffff`)."""
    definition = re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name)
                           + rb"[ \t]+([^\r\n]*?)[ \t]*(?://[^\r\n]*)?$", data, re.MULTILINE)
    return definition is not None and _FULL_MASK.fullmatch(definition.group(1)) is not None


def is_full_mask(data: bytes, mask: bytes) -> bool:
    mask = mask.strip()
    if _FULL_MASK.fullmatch(mask) is not None:
        return True
    return _NAME.fullmatch(mask) is not None and _defined_as_full(data, mask)


@argument_rule("drop-first-argument")
def drop_first_argument(data: bytes, ref: Reference) -> ArgumentRewrite | None:
    """`__shfl_down_sync(mask, v, d)` -> `__shfl_down(v, d)`: HIP's mask-less
    warp functions act on the active lanes of the wavefront.

    Only a full mask says "every lane": a partial or unknown one (`active`,
    `0x0000ffff`, a variable) names the lanes that take part, which may be
    lanes diverged elsewhere (allowed since Volta, never converged on AMD).
    Dropping it is then right only when exactly those lanes are active at
    this call, which a person has to confirm: the rewrite becomes an unsafe
    fix (applied with --unsafe-fixes), reported until then.  Keeping the
    call as it was is loud, not silent: HIP before ROCm 6.2 has no `_sync`
    forms, and later ones want a 64-bit mask."""
    if not ref.args or len(ref.args) < 2:
        return None
    (first_start, first_end), (second_start, _) = ref.args[0], ref.args[1]
    mask = data[first_start:first_end]
    edits = (Edit(first_start, second_start, b""),)
    if is_full_mask(data, mask):
        return ArgumentRewrite(edits, "the mask argument was dropped")
    shown = " ".join(mask.decode("utf-8", "replace").split())
    return ArgumentRewrite(edits, "drops the mask argument",
                           f"the mask `{shown}` is not a full-warp mask: HIP's mask-less form "
                           "acts on whichever lanes are active here, so check that exactly "
                           "the lanes of the mask reach this call")


def _wrap_symbol(data: bytes, ref: Reference, index: int) -> ArgumentRewrite | None:
    if not ref.args or len(ref.args) <= index:
        return None
    start, end = ref.args[index]
    if data[start:end].lstrip().startswith(b"HIP_SYMBOL"):
        return ArgumentRewrite((), "already wrapped")
    return ArgumentRewrite((Edit(start, start, b"HIP_SYMBOL("), Edit(end, end, b")")),
                           "the symbol argument was wrapped in HIP_SYMBOL()")


@argument_rule("wrap-symbol-argument")
def wrap_symbol_argument(data: bytes, ref: Reference) -> ArgumentRewrite | None:
    """`cudaMemcpyToSymbol(sym, ...)` -> `hipMemcpyToSymbol(HIP_SYMBOL(sym), ...)`."""
    return _wrap_symbol(data, ref, 0)


@argument_rule("wrap-second-symbol-argument")
def wrap_second_symbol_argument(data: bytes, ref: Reference) -> ArgumentRewrite | None:
    """`cudaMemcpyFromSymbol(dst, sym, ...)` -> `hipMemcpyFromSymbol(dst, HIP_SYMBOL(sym), ...)`;
    likewise cudaGetSymbolAddress/cudaGetSymbolSize, whose symbol comes second."""
    return _wrap_symbol(data, ref, 1)


_EMPTY_CALL = re.compile(rb"\s*\(\s*\)")


@argument_rule("activemask-as-ballot")
def activemask_as_ballot(data: bytes, ref: Reference) -> ArgumentRewrite | None:
    """`__activemask()` -> `__ballot(1)`: the mask of the active lanes, which is
    what ROCm 6.2+'s own `__activemask` (behind a macro) returns."""
    if ref.args != ():
        return None
    call = _EMPTY_CALL.match(data, ref.end)
    if call is None:
        return None
    close = call.end() - 1
    return ArgumentRewrite((Edit(close, close, b"1"),), "the call became __ballot(1)")
