"""The builder of ``hipport report --verify`` (``hipport.report.built``):
build a converted tree and say what failed.

Today it is ``hipport verify``'s per-translation-unit mode: each unit
compiled with hipcc, every error of its output kept (not only the first).
When ``hipport verify --build`` lands (issue 26: the tree configured and
built with its own CMake or Make), ``BUILD`` becomes that mode's adapter and
the report bills configure and link errors too, and build-file findings by
what the build made of them; nothing else changes."""
from __future__ import annotations

import os
import re
from pathlib import Path

from hipport import verify
from hipport.report.built import BuildError, BuildOutcome

_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error: "
                    r"(?P<message>.*)$", re.MULTILINE)


def units_build(converted: Path, jobs: int, timeout: float) -> BuildOutcome:
    """Compile every translation unit of ``converted`` (``hipport verify``)."""
    result = verify.run(verify.Request((converted,), jobs=jobs, timeout=timeout))
    root = converted.resolve()
    errors: list[BuildError] = []
    failed: set[str] = set()
    passed: set[str] = set()
    for unit in result.results:
        name = _relative(unit.unit.path, root) or unit.unit.path.name
        if unit.ok:
            passed.add(name)
            continue
        failed.add(name)
        found = _errors(unit.output, unit.unit.path.parent, root)
        if not found:  # a timeout, a driver error: the unit's first location
            where = unit.location.path if unit.location else unit.unit.path
            found = [BuildError(unit.message.removeprefix("error: "),
                                _relative(where, root) or name,
                                unit.location.line if unit.location else 0)]
        errors += found
    how = f"{result.summary}; units compiled one by one with the build files' flags"
    return BuildOutcome(how, tuple(errors), frozenset(failed), frozenset(passed))


def _errors(output: str, folder: Path, root: Path) -> list[BuildError]:
    """Every located error of a compiler's output that lies in the tree
    (an error in a system header is reported by the unit's first error)."""
    found = []
    for match in _ERROR.finditer(output):
        path = Path(os.path.normpath(folder / match["file"]))
        name = _relative(path, root)
        if name is not None:
            found.append(BuildError(match["message"].strip(), name, int(match["line"])))
    return list(dict.fromkeys(found))  # the same error for each GPU target once


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return None


# The one line to change when `hipport verify --build` lands: BUILD = its
# adapter, a function (converted tree, jobs, timeout) -> BuildOutcome that
# configures and builds the converted tree with its own build files and
# returns every failure as a BuildError (stage "configure", "compile" or
# "link"; path relative to the converted tree, None for a link or driver
# error; line; message), ``failed``/``passed`` the files of the targets that
# failed/built, and ``build_files=True`` once configuring succeeded (the
# build-file findings are then judged by the build, not billed from the
# findings).  benchmarks/effort_calibration.py's ``logged_build`` does the
# same from endtoend.py's logs: the figures of docs/effort.md's "own build".
BUILD = units_build
