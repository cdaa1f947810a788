"""Byte-span edits and their application.

Edits are expressed on the original bytes.  Fixes (groups of edits that must be
applied together) are applied once, in order of position; a fix that overlaps
one already applied is refused and reported, never merged.
"""
from __future__ import annotations

import bisect
import enum
from dataclasses import dataclass
from typing import Iterable, Sequence


class Applicability(enum.IntEnum):
    DISPLAY_ONLY = 0
    UNSAFE = 1
    SAFE = 2

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, order=True)
class Edit:
    start: int
    end: int  # exclusive
    text: bytes

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid edit span {self.start}..{self.end}")


@dataclass(frozen=True)
class Fix:
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    title: str = ""

    @property
    def start(self) -> int:
        return min(e.start for e in self.edits)

    @property
    def end(self) -> int:
        return max(e.end for e in self.edits)


@dataclass(frozen=True)
class AppliedFixes:
    data: bytes
    applied: tuple[Fix, ...]
    skipped: tuple[Fix, ...]


def _conflict(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when two spans overlap; an insertion point strictly inside a span,
    or two insertions at the same point, also conflict (their order would be
    ambiguous)."""
    (s1, e1), (s2, e2) = a, b
    if s1 < e2 and s2 < e1:
        return True
    if s1 == e1 and (s2 < s1 < e2 or (s2 == e2 == s1)):
        return True
    return s2 == e2 and s1 < s2 < e1


def apply_fixes(data: bytes, fixes: Iterable[Fix]) -> AppliedFixes:
    """Apply non-overlapping fixes to ``data``; overlapping ones are skipped.

    The result does not depend on the order ``fixes`` are given in: fixes are
    sorted by their span (ties broken by content) before application.

    >>> apply_fixes(b"cudaFree(p);", [Fix((Edit(0, 8, b"hipFree"),))]).data
    b'hipFree(p);'
    """
    ordered = sorted(
        (f for f in fixes if f.edits),
        key=lambda f: (f.start, f.end, tuple(sorted(f.edits)), f.title),
    )
    chosen: list[Fix] = []
    skipped: list[Fix] = []
    taken: list[tuple[int, int]] = []  # sorted, pairwise non-conflicting spans
    for fix in ordered:
        spans = sorted((e.start, e.end) for e in fix.edits)
        if (
            fix.end > len(data)
            or any(_conflict(a, b) for a, b in zip(spans, spans[1:]))
            or any(_conflicts_with_taken(span, taken) for span in spans)
        ):
            skipped.append(fix)
            continue
        chosen.append(fix)
        for span in spans:
            bisect.insort(taken, span)
    edits = sorted(e for f in chosen for e in f.edits)
    return AppliedFixes(_stitch(data, edits), tuple(chosen), tuple(skipped))


def _conflicts_with_taken(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    # Spans in ``taken`` never overlap each other, so only the neighbours of
    # the insertion point can conflict with ``span``.
    i = bisect.bisect_left(taken, span)
    return any(_conflict(span, taken[j]) for j in (i - 1, i, i + 1) if 0 <= j < len(taken))


def _stitch(data: bytes, edits: Sequence[Edit]) -> bytes:
    if not edits:
        return data
    out: list[bytes] = []
    pos = 0
    for e in edits:
        out.append(data[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(data[pos:])
    return b"".join(out)
