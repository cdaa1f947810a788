"""Per-file and per-run statistics, with the formulas documented in docs/."""
from __future__ import annotations

from dataclasses import dataclass, field

from hipport.codes import LEDGER_CODES
from hipport.findings import LocatedFinding

# Codes whose findings are CUDA references (API renames, includes, launches,
# argument rules, ledger); hazards and tool problems are not references.
_REFERENCE_CODES = frozenset({"HP301", "HP302", "HP304", "HP305"})


def is_reference(code: str) -> bool:
    return code[2] in "129" or code in _REFERENCE_CODES


@dataclass
class FileStats:
    lines: int = 0
    changed_lines: int = 0
    bytes: int = 0
    refs_converted: int = 0
    refs_unconverted: int = 0

    @classmethod
    def of(cls, lines: int, size: int, changed_lines: int,
           findings: list[LocatedFinding]) -> FileStats:
        converted = unconverted = 0
        for f in findings:
            if not is_reference(f.code):
                continue
            if f.applied:
                converted += 1
            elif f.code in LEDGER_CODES or f.finding.fix is not None:
                unconverted += 1
        return cls(lines, changed_lines, size, converted, unconverted)


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

    @property
    def conversion_rate(self) -> float:
        """converted references / (converted + unconverted); 1.0 when there are none."""
        total = self.totals.refs_converted + self.totals.refs_unconverted
        return self.totals.refs_converted / total if total else 1.0

    @property
    def reuse_rate(self) -> float:
        """Share of lines kept exactly as they were: 1 - changed / total."""
        return 1 - self.totals.changed_lines / self.totals.lines if self.totals.lines else 1.0

    def summary(self) -> str:
        t = self.totals
        return (
            f"{self.files_converted} files converted, {self.files_unchanged} unchanged, "
            f"{self.files_failed} failed"
            + (f", {self.files_skipped} skipped" if self.files_skipped else "")
            + f" · {t.refs_converted} refs converted, {t.refs_unconverted} unconverted "
            f"(conversion {self.conversion_rate:.1%}, reuse {self.reuse_rate:.1%} of "
            f"{t.lines} lines)"
        )
