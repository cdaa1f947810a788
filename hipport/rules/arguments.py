"""Argument rules named by table entries (``rule:`` in mappings/*.yaml)."""
from __future__ import annotations

import re

from hipport.edits import Edit
from hipport.parse.model import Reference
from hipport.rules import argument_rule

# Masks meaning "every lane of the warp": dropping them keeps the meaning.
_FULL_MASK = re.compile(
    rb"\(?\s*(?:0[xX][fF]{8}[uUlL]*|~0[uUlL]*|-1|__activemask\s*\(\s*\)|FULL_MASK|FULL_WARP_MASK)\s*\)?"
)


@argument_rule("drop-first-argument")
def drop_first_argument(data: bytes, ref: Reference) -> tuple[tuple[Edit, ...], str] | None:
    """`__shfl_down_sync(mask, v, d)` -> `__shfl_down(v, d)`: HIP's mask-less
    warp functions act on the whole wavefront."""
    if not ref.args or len(ref.args) < 2:
        return None
    (first_start, _), (second_start, _) = ref.args[0], ref.args[1]
    mask = data[ref.args[0][0]:ref.args[0][1]]
    note = "the mask argument was dropped"
    if _FULL_MASK.fullmatch(mask) is None:
        note += f" (it was `{mask.decode('utf-8', 'replace')}`, not a full mask: review)"
    return (Edit(first_start, second_start, b""),), note


def _wrap_symbol(data: bytes, ref: Reference, index: int) -> tuple[tuple[Edit, ...], str] | None:
    if not ref.args or len(ref.args) <= index:
        return None
    start, end = ref.args[index]
    if data[start:end].lstrip().startswith(b"HIP_SYMBOL"):
        return (), "already wrapped"
    return (Edit(start, start, b"HIP_SYMBOL("), Edit(end, end, b")")), \
        "the symbol argument was wrapped in HIP_SYMBOL()"


@argument_rule("wrap-symbol-argument")
def wrap_symbol_argument(data: bytes, ref: Reference) -> tuple[tuple[Edit, ...], str] | None:
    """`cudaMemcpyToSymbol(sym, ...)` -> `hipMemcpyToSymbol(HIP_SYMBOL(sym), ...)`."""
    return _wrap_symbol(data, ref, 0)


@argument_rule("wrap-second-symbol-argument")
def wrap_second_symbol_argument(data: bytes,
                                ref: Reference) -> tuple[tuple[Edit, ...], str] | None:
    """`cudaMemcpyFromSymbol(dst, sym, ...)` -> `hipMemcpyFromSymbol(dst, HIP_SYMBOL(sym), ...)`;
    likewise cudaGetSymbolAddress/cudaGetSymbolSize, whose symbol comes second."""
    return _wrap_symbol(data, ref, 1)


_EMPTY_CALL = re.compile(rb"\s*\(\s*\)")


@argument_rule("activemask-as-ballot")
def activemask_as_ballot(data: bytes, ref: Reference) -> tuple[tuple[Edit, ...], str] | None:
    """`__activemask()` -> `__ballot(1)`: the mask of the active lanes, which is
    what ROCm 6.2+'s own `__activemask` (behind a macro) returns."""
    if ref.args != ():
        return None
    call = _EMPTY_CALL.match(data, ref.end)
    if call is None:
        return None
    close = call.end() - 1
    return (Edit(close, close, b"1"),), "the call became __ballot(1)"
