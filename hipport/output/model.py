"""A finding as listed to the user: in a named file, located, and (for
`check`) fingerprinted.  Every findings format renders a sequence of these,
whichever command produced them."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from hipport.codes import CODES
from hipport.edits import Applicability
from hipport.findings import LocatedFinding

# Pseudo-code of an unused `// hipport: ignore` comment (it has no HP code).
UNUSED_SUPPRESSION = "unused-suppression"


class FixState(enum.Enum):
    """Where a finding's fix stands."""

    NONE = "none"  # no fix, or one that is only shown (display-only)
    APPLIED = "applied"  # applied to the output of this run
    SAFE = "safe"  # safe, yet not applied (it overlapped another fix, or was vetoed)
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes


@dataclass(frozen=True)
class Reported:
    path: str  # as shown to the user
    line: int  # 1-based
    column: int  # 1-based
    end_line: int
    end_column: int
    code: str
    message: str
    api: str | None = None  # the CUDA name, for table-driven findings
    fingerprint: str = ""  # stable across line shifts (check's baseline)
    finding: LocatedFinding | None = None  # None for pseudo-findings (unused suppressions)

    @classmethod
    def of(cls, path: str, f: LocatedFinding, fingerprint: str = "") -> Reported:
        return cls(path, f.location.line, f.location.column, f.end_location.line,
                   f.end_location.column, f.code, f.finding.message, f.finding.cuda_name,
                   fingerprint, f)

    @property
    def name(self) -> str:
        known = CODES.get(self.code)
        return known.name if known is not None else self.code

    @property
    def severity(self) -> str:
        known = CODES.get(self.code)
        return known.severity.value if known is not None else "warning"

    @property
    def headline(self) -> str:
        return self.finding.finding.headline if self.finding is not None else self.message

    @property
    def note(self) -> str:
        """The part of the message shared by every use of the same API ("" if none)."""
        if self.finding is None or self.headline == self.message:
            return ""
        return self.finding.finding.note or ""

    @property
    def fix_state(self) -> FixState:
        if self.finding is None:
            return FixState.NONE
        fix = self.finding.finding.fix
        if fix is None or not fix.edits or fix.applicability is Applicability.DISPLAY_ONLY:
            return FixState.NONE
        if self.finding.applied:
            return FixState.APPLIED
        return FixState.UNSAFE if fix.applicability is Applicability.UNSAFE else FixState.SAFE


def sort_key(item: Reported) -> tuple[str, int, int, str]:
    return (item.path, item.line, item.column, item.code)
