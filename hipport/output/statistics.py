"""``--statistics``: how many findings of each code (ruff's table), instead
of the findings themselves."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Sequence, TextIO

from hipport.output.model import Reported
from hipport.output.options import Options


@dataclass(frozen=True)
class Row:
    code: str
    name: str
    severity: str
    count: int
    fixable: int  # findings with a fix hipport could still make ([*])


def count_codes(items: Sequence[Reported], options: Options) -> list[Row]:
    """One row per code, the most frequent first."""
    rows: dict[str, list[int]] = {}
    first: dict[str, Reported] = {}
    for item in items:
        counts = rows.setdefault(item.code, [0, 0])
        counts[0] += 1
        counts[1] += options.fixable(item)
        first.setdefault(item.code, item)
    return sorted((Row(code, first[code].name, first[code].severity, n, fixable)
                   for code, (n, fixable) in rows.items()),
                  key=lambda r: (-r.count, r.code))


def render_statistics(items: Sequence[Reported], out: TextIO, options: Options,
                      as_json: bool = False) -> None:
    rows = count_codes(items, options)
    if as_json:
        json.dump([{"code": r.code, "name": r.name, "severity": r.severity, "count": r.count,
                    "fixable_count": r.fixable} for r in rows], out, indent=2,
                  allow_nan=False)
        out.write("\n")
        return
    if not rows:
        return
    p = options.palette
    width = len(str(rows[0].count))
    for r in rows:
        # ruff's markers: [*] every finding of the code is fixable, [-] some are
        marker = "[*]" if r.fixable == r.count else "[-]" if r.fixable else "   "
        out.write(f"{r.count:>{width}}  {p.code(r.code, r.severity)}  {p.marker(marker)} "
                  f"{r.name}\n")
