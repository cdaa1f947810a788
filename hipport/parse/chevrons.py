"""Kernel launches written with spaced chevrons, joined for the parser.

Visual Studio's formatter writes ``kernel << <grid, block >> > (args)``.
nvcc accepts it, but the tree-sitter grammar, like clang (so hipcc), only
knows the ``<<<`` and ``>>>`` tokens: the launch parsed as an error, and the
recovery swallowed the statements after it.

``join`` gives the parser the same text with such a pair respelled at the
same length (``<< <`` -> ``<<< `` and ``>> >`` -> `` >>>``), so every byte
offset stays valid for the original bytes.  ``spaced_launches`` finds the
pairs, for the rule that joins them in the code (HP312, both strategies).

``<< <`` is never an expression (``<`` cannot start an operand) except in
``operator<< <T>``, which is left alone; the closer must be a ``>>`` and a
``>`` separated by blanks and followed by ``(``, so ``vector<vector<int>> >``
is never taken for one.
"""
from __future__ import annotations

import re

from hipport.parse.digraphs import SKIP

Span = tuple[int, int]

_OPEN = rb"(?<!<)<<[ \t]*<(?!<)"
_SCAN = re.compile(rb"(?P<skip>" + SKIP + rb") | (?P<open>" + _OPEN + rb")", re.S | re.X)
_CLOSE = re.compile(rb"(?<!>)>>[ \t]*>(?!>)(?=\s*\()")
_OPERATOR = re.compile(rb"\boperator\s*$")


def spaced_launches(data: bytes) -> list[tuple[Span, Span]]:
    """(opener, closer) spans of the launches with a blank inside ``<<<`` or
    ``>>>``, outside comments and literals."""
    if b"<< " not in data and b"<<\t" not in data and b"> >" not in data \
            and b">\t>" not in data:
        return []
    pairs: list[tuple[Span, Span]] = []
    for match in _SCAN.finditer(data):
        if match.group("open") is None:
            continue
        start, end = match.span("open")
        if _OPERATOR.search(data[max(0, start - 40):start]):
            continue
        statement_end = _statement_end(data, end)
        close = _CLOSE.search(data, end, statement_end)
        if close is None:
            continue
        if end - start == 3 and close.end() - close.start() == 3:
            continue  # `<<<` ... `>>>`: nothing to join
        pairs.append(((start, end), close.span()))
    return pairs


def _statement_end(data: bytes, at: int) -> int:
    semicolon = data.find(b";", at)
    return len(data) if semicolon == -1 else semicolon


def join(data: bytes) -> bytes:
    """``data`` with each spaced launch's chevrons respelled at the same length."""
    pairs = spaced_launches(data)
    if not pairs:
        return data
    out = bytearray(data)
    for (open_start, open_end), (close_start, close_end) in pairs:
        out[open_start:open_end] = b"<<<".ljust(open_end - open_start)
        out[close_start:close_end] = b">>>".rjust(close_end - close_start)
    return bytes(out)
