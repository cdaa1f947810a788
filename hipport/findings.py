"""The one findings model every renderer and exit code is derived from."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.codes import CODES, Severity
from hipport.edits import Fix
from hipport.source import Location


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    start: int
    end: int
    fix: Fix | None = None
    cuda_name: str | None = None  # the mapping key, for table-driven findings
    hip_name: str | None = None
    library: str | None = None
    # The end of ``message`` that explains the API or the construct rather
    # than this use (a catalogue entry's note): the same words at every use,
    # so a concise listing prints them once per run.
    note: str | None = None

    @property
    def headline(self) -> str:
        """``message`` without its note: what is particular to this use."""
        if self.note and self.message.endswith(self.note):
            return self.message[:-len(self.note)].rstrip(" :;,")
        return self.message

    @property
    def name(self) -> str:
        return CODES[self.code].name

    @property
    def severity(self) -> Severity:
        return CODES[self.code].severity


@dataclass(frozen=True)
class LocatedFinding:
    """A finding with its line/column resolved, ready for reporting."""

    finding: Finding
    location: Location
    end_location: Location
    applied: bool  # its fix was applied to the output

    @property
    def code(self) -> str:
        return self.finding.code
