"""What a run is made of: one job per file, and one result per job."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from hipport.findings import LocatedFinding
from hipport.score import FileStats


class Outcome(enum.Enum):
    CONVERTED = "converted"
    UNCHANGED = "unchanged"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Job:
    source: Path
    display: str  # path as shown to the user
    target: Path | None = None  # where to write (mirror / in-place)
    convert: bool = True  # False: only copy (mirror of a non-source file)
    build_kind: str | None = None  # "cmake" / "make": a build file (hipport.buildfiles)

    @property
    def kind(self) -> str:
        return self.build_kind or "source"


@dataclass(frozen=True)
class FileResult:
    display: str
    outcome: Outcome
    findings: tuple[LocatedFinding, ...] = ()
    stats: FileStats = field(default_factory=FileStats)
    declared: frozenset[str] = frozenset()
    diff: str = ""
    error: str = ""  # a short reason when FAILED or SKIPPED
    # A file the run generated (a strategy's header): listed and diffed, but
    # not one of the user's files in the counts.
    generated: bool = False
