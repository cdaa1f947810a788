"""Inline suppressions: `// hipport: ignore[HP901, HP402]` or `// hipport: ignore`.

A suppression comment applies to its own line; a comment alone on its line
also applies to the next line.  The comment syntax itself is matched on the
text of comment lines (like ruff's `noqa`): it is not C++ code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from hipport.findings import Finding
from hipport.source import LineIndex

_DIRECTIVE = re.compile(
    rb"(?://|/\*)[ \t]*hipport:[ \t]*ignore(?:\[(?P<codes>[A-Za-z0-9_, \t-]*)\])?"
)
ALL = "*"


@dataclass(frozen=True)
class Suppression:
    line: int  # 0-based line of the comment
    codes: frozenset[str]  # {"*"} for every code
    applies_to: tuple[int, ...]  # 0-based lines


@dataclass
class Suppressions:
    items: list[Suppression] = field(default_factory=list)
    used: set[tuple[int, str]] = field(default_factory=set)  # (item index, code)

    @classmethod
    def parse(cls, data: bytes, index: LineIndex) -> Suppressions:
        if b"hipport:" not in data:
            return cls()
        items = []
        for match in _DIRECTIVE.finditer(data):
            line = index.line_of(match.start())
            start, _ = index.line_span(line)
            alone = not data[start:match.start()].strip()
            raw = match.group("codes")
            codes = frozenset(c.strip().upper() for c in raw.decode().replace(",", " ").split()) \
                if raw is not None and raw.strip() else frozenset({ALL})
            items.append(Suppression(line, codes, (line, line + 1) if alone else (line,)))
        return cls(items)

    def filter(self, findings: list[Finding], index: LineIndex) -> list[Finding]:
        if not self.items:
            return findings
        by_line: dict[int, list[int]] = {}
        for i, item in enumerate(self.items):
            for line in item.applies_to:
                by_line.setdefault(line, []).append(i)
        kept = []
        for f in findings:
            hit = self._match(by_line.get(index.line_of(f.start), ()), f.code)
            if hit is None:
                kept.append(f)
            else:
                self.used.add((hit, f.code))
        return kept

    def _match(self, candidates: list[int] | tuple[()], code: str) -> int | None:
        for i in candidates:
            codes = self.items[i].codes
            if ALL in codes or code in codes:
                return i
        return None

    def unused(self) -> list[tuple[Suppression, frozenset[str]]]:
        """Suppressions (and the codes in them) that matched no finding."""
        out = []
        for i, item in enumerate(self.items):
            used = {code for j, code in self.used if j == i}
            if ALL in item.codes:
                if not used:
                    out.append((item, item.codes))
            elif item.codes - used:
                out.append((item, item.codes - used))
        return out
