"""Per-file and per-run statistics, with the formulas documented in docs/."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from hipport.codes import CODES
from hipport.diagnostics.model import FileEffect
from hipport.findings import LocatedFinding
from hipport.words import plural

# The code of a file hipport could not read as source text (binary, UTF-16),
# named in messages; nothing in such a file was converted or checked, so
# strict modes fail.
UNREAD = "HP002"


def not_read(findings: Iterable[LocatedFinding]) -> LocatedFinding | None:
    """The finding saying the file was skipped unread, if there is one."""
    return next((f for f in findings if CODES[f.code].effect is FileEffect.SKIPPED), None)


def to_confirm(findings: Iterable[LocatedFinding]) -> list[LocatedFinding]:
    """Changes hipport made by default that a person must confirm (HP411):
    strict modes fail on them as on unconverted references."""
    return [f for f in findings if f.code in CODES and CODES[f.code].confirm]


def is_reference(code: str) -> bool:
    """Findings of ``code`` are CUDA references (renames, includes, launches,
    argument rules, the ledger); hazards and tool problems are not."""
    known = CODES.get(code)
    return known is not None and known.reference


def counted_reference(f: LocatedFinding) -> bool | None:
    """How a finding counts in the conversion rate: True converted, False
    unconverted (a ledger API, or a fix left unapplied), None not counted."""
    code = CODES.get(f.code)
    if code is None or not code.reference:
        return None
    if f.applied:
        return True
    if code.unconverted or f.finding.fix is not None:
        return False
    return None


def conversion_rate(converted: int, unconverted: int) -> float:
    """converted references / (converted + unconverted); 1.0 when there are none."""
    total = converted + unconverted
    return converted / total if total else 1.0


def reuse_rate(edited_lines: int, lines: int) -> float:
    """Share of the original lines kept exactly as they were: 1 - edited /
    lines, between 0 and 1 (lines added around them, as the compat strategy
    does, keep them); 1.0 when there are none."""
    return 1 - min(edited_lines, lines) / lines if lines else 1.0


@dataclass
class FileStats:
    lines: int = 0
    changed_lines: int = 0  # lines a diff of the output adds or changes
    bytes: int = 0
    refs_converted: int = 0
    refs_unconverted: int = 0
    edited_lines: int = 0  # original lines an edit changed (not kept): at most ``lines``

    @classmethod
    def of(cls, lines: int, size: int, changed_lines: int, findings: list[LocatedFinding],
           edited_lines: int | None = None) -> FileStats:
        counted = [counted_reference(f) for f in findings]
        return cls(lines, changed_lines, size, counted.count(True), counted.count(False),
                   changed_lines if edited_lines is None else edited_lines)


@dataclass
class RunStats:
    files_converted: int = 0
    files_unchanged: int = 0
    files_failed: int = 0
    files_skipped: int = 0
    totals: FileStats = field(default_factory=FileStats)

    def add(self, stats: FileStats) -> None:
        t = self.totals
        t.lines += stats.lines
        t.changed_lines += stats.changed_lines
        t.bytes += stats.bytes
        t.refs_converted += stats.refs_converted
        t.refs_unconverted += stats.refs_unconverted
        t.edited_lines += stats.edited_lines

    @property
    def conversion_rate(self) -> float:
        return conversion_rate(self.totals.refs_converted, self.totals.refs_unconverted)

    @property
    def reuse_rate(self) -> float:
        return reuse_rate(self.totals.edited_lines, self.totals.lines)

    def summary(self) -> str:
        t = self.totals
        return (
            f"{plural(self.files_converted, 'file')} converted, {self.files_unchanged} "
            f"unchanged, {self.files_failed} failed"
            + (f", {self.files_skipped} skipped" if self.files_skipped else "")
            + f" · {plural(t.refs_converted, 'ref')} converted, {t.refs_unconverted} "
            f"unconverted ({self._rates()})"
        )

    def _rates(self) -> str:
        # A file left unchanged (failed, skipped) is not measured: with no
        # line measured a rate would read "100 %" for a run that did nothing.
        t = self.totals
        if not t.lines:
            return "nothing measured"
        left_out = self.files_failed + self.files_skipped
        return (f"conversion {self.conversion_rate:.1%}, reuse {self.reuse_rate:.1%} of "
                f"{plural(t.lines, 'line')}" + (f"; {left_out} failed or skipped not counted"
                                      if left_out else ""))

