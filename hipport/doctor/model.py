"""What doctor finds: one Check per question, grouped by section; the exit
code and both renderers are derived from this model alone."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable

Version = tuple[int, ...]

SCHEMA_ID = "hipport-doctor/1"
SECTIONS = ("rocm", "compiler", "libraries", "devices", "frameworks", "tree")


class Status(enum.Enum):
    OK = "ok"
    WARN = "warn"  # works, but probably not the way the user wants
    MISSING = "missing"
    TOO_OLD = "too-old"
    INFO = "info"  # a fact, neither good nor bad (e.g. an optional library absent)

    @property
    def mark(self) -> str:
        return _MARKS[self]

    @property
    def is_problem(self) -> bool:
        return self in (Status.WARN, Status.MISSING, Status.TOO_OLD)


_MARKS = {Status.OK: "✓", Status.WARN: "!", Status.MISSING: "✗", Status.TOO_OLD: "✗",
          Status.INFO: "·"}


@dataclass(frozen=True)
class Check:
    section: str  # one of SECTIONS
    id: str  # stable kebab-case id, e.g. "hip-platform", "library-hipblas"
    title: str  # what is checked, e.g. "hipBLAS"
    status: Status
    detail: str  # what was found
    advice: str = ""  # one line: what to do, for a problem
    required: bool = False  # the tree needs it: a MISSING/TOO_OLD here fails the run
    data: tuple[tuple[str, str], ...] = ()  # machine-readable facts for JSON

    @property
    def fails(self) -> bool:
        return self.required and self.status in (Status.MISSING, Status.TOO_OLD)


@dataclass(frozen=True)
class Diagnosis:
    checks: tuple[Check, ...]
    tree: tuple[str, ...] = ()  # the paths checked against, if any
    rocm_root: str | None = None
    rocm_version: Version | None = None
    facts: tuple[tuple[str, str], ...] = field(default=())

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.fails)

    @property
    def exit_code(self) -> int:
        return 1 if self.failed else 0

    def section(self, name: str) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.section == name)


def unreadable(section: str, ident: str, title: str, error: OSError,
               status: Status = Status.WARN, required: bool = False) -> Check:
    """The check of a probe that could not look at a file or folder."""
    return Check(section, ident, title, status, f"cannot be read ({cannot_read(error)})",
                 "make it readable for this user (mode, group, ACL), or use another "
                 "installation", required)


def cannot_read(error: OSError) -> str:
    """``Permission denied: /opt/rocm/.info/version``."""
    reason = error.strerror or str(error)
    return f"{reason}: {error.filename}" if error.filename else reason


def format_version(version: Version | None) -> str:
    return "?" if version is None else ".".join(map(str, version))


def parse_version(text: str) -> Version | None:
    """``"5.2.21153-0"`` -> (5, 2, 21153); None when there is no leading number."""
    parts: list[int] = []
    for piece in text.strip().split("."):
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) < len(piece):
            break
    return tuple(parts) or None


def at_least(have: Version | None, need: Version | None) -> bool:
    if need is None:
        return True
    if have is None:
        return False
    width = max(len(have), len(need))
    return have + (0,) * (width - len(have)) >= need + (0,) * (width - len(need))


def checks_in(sections: Iterable[str], checks: Iterable[Check]) -> list[Check]:
    order = {name: i for i, name in enumerate(sections)}
    return sorted(checks, key=lambda c: order.get(c.section, len(order)))
