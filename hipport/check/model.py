"""A violation: one finding that fails the check, located and fingerprinted."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.findings import LocatedFinding

# Pseudo-code of an unused `// hipport: ignore` comment (it has no HP code).
UNUSED_SUPPRESSION = "unused-suppression"


@dataclass(frozen=True)
class Violation:
    path: str  # as shown to the user
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    code: str
    message: str
    api: str | None = None  # the CUDA name, for table-driven findings
    fingerprint: str = ""  # stable across line shifts (see baseline.py)
    finding: LocatedFinding | None = None  # None for unused suppressions

    @classmethod
    def of(cls, path: str, f: LocatedFinding, fingerprint: str = "") -> Violation:
        return cls(path, f.location.line, f.location.column, f.end_location.line,
                   f.end_location.column, f.code, f.finding.message, f.finding.cuda_name,
                   fingerprint, f)
