"""What GNU make prints about itself: the folders it works in and the
targets that failed (``make: *** [Makefile:9: kernel.o] Error 1``).  Make
builds the Makefiles CMake generates too, so both build systems read it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from threading import Event

from hipport.stopping import raise_if_stopped

_MAKE = r"(?P<make>[\w./+-]*make(?:\[(?P<level>\d+)\])?)"
_FAILED = re.compile(_MAKE + r": \*\*\* (?:\[(?:(?P<file>[^\]]+?):(?P<line>\d+): )?"
                     r"(?P<target>[^\]]+)\] (?P<why>.+)|(?P<message>.+))$")
_DIRECTORY = re.compile(_MAKE + r": (?P<verb>Entering|Leaving) directory [`'](?P<folder>.+)'$")


@dataclass(frozen=True)
class MakeFailure:
    """``make: *** [Makefile:9: kernel.o] Error 1``, or make's own complaint
    (``*** No rule to make target 'x', needed by 'y'.  Stop.``)."""

    index: int  # of the output line
    makefile: str | None  # as make named it ("Makefile", a generated build.make)
    line: int  # 0: not said
    target: str | None
    why: str  # "Error 1", or the complaint
    folder: str | None  # the folder make said it works in, when it said
    level: int  # make[2]: 2; the top make: 0

    @property
    def status(self) -> int | None:
        """The recipe's exit status (``Error 2``: 2), None for a complaint."""
        found = re.fullmatch(r"Error (\d+)(?: \(ignored\))?", self.why)
        return int(found[1]) if found else None


def make_failures(lines: list[str], folders: list[str | None] | None = None,
                  stop: Event | None = None) -> list[MakeFailure]:
    """Every failure make reported, in order (``folders``: ``make_folders``
    of the lines, when the caller has them; ``stop``: see ``make_folders``)."""
    if folders is None:
        folders = make_folders(lines, stop)
    failures: list[MakeFailure] = []
    for index, line in enumerate(lines):
        raise_if_stopped(stop)
        failed = _FAILED.match(line) if "***" in line else None
        if failed is None:
            continue
        why = (failed["why"] or failed["message"] or "").strip()
        failures.append(MakeFailure(index, failed["file"], int(failed["line"] or 0),
                                    failed["target"], why, folders[index],
                                    int(failed["level"] or 0)))
    return failures


def make_folders(lines: list[str], stop: Event | None = None) -> list[str | None]:
    """For each output line, the folder the innermost make worked in there
    (``make -w``, and every recursive make, says so), None before any.
    ``stop``, once set, ends the reading at the next line (``Stopped``)."""
    current: dict[int, str] = {}
    folders: list[str | None] = []
    for line in lines:
        raise_if_stopped(stop)
        moved = _DIRECTORY.match(line) if " directory " in line else None
        if moved:
            level = int(moved["level"] or 0)
            if moved["verb"] == "Entering":
                current[level] = moved["folder"]
            else:
                current.pop(level, None)
        folders.append(current[max(current)] if current else None)
    return folders
