"""Both conversion strategies side by side (docs/single-source.md): what
each changes, and what each leaves for a person."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from hipport.codes import CODES
from hipport.compat import HEADER_STALE
from hipport.jobs import FileResult, Outcome


@dataclass(frozen=True)
class StrategyRow:
    strategy: str  # "rewrite" / "compat"
    files_touched: int  # sources edited (and, for compat, the generated header)
    lines_changed: int  # source lines edited or added, the header's lines included
    names_mapped: int  # distinct CUDA names converted (renamed, or mapped by the header)
    refs_unconverted: int
    unconverted: tuple[str, ...]  # distinct CUDA names left as they are, sorted
    header_lines: int = 0  # compat: lines of the generated header


def strategy_row(strategy: str, results: Iterable[FileResult],
                 header: tuple[str, int] | None = None) -> StrategyRow:
    """``header``: (its display name, its line count) for compat."""
    results = [r for r in results if header is None or r.display != header[0]]
    mapped: set[str] = set()
    left: set[str] = set()
    for result in results:
        for f in result.findings:
            name = f.finding.cuda_name
            if name is None or f.code == HEADER_STALE:
                continue
            if f.applied:
                mapped.add(name)
            elif CODES[f.code].unconverted:
                left.add(name)
    touched = sum(r.outcome is Outcome.CONVERTED for r in results)
    lines = sum(r.stats.changed_lines for r in results)
    header_lines = header[1] if header is not None else 0
    return StrategyRow(strategy, touched + (header is not None), lines + header_lines,
                       len(mapped), sum(r.stats.refs_unconverted for r in results),
                       tuple(sorted(left - mapped)), header_lines)
