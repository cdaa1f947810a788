"""The builder of ``hipport report --verify`` (``hipport.report.built``):
build a converted tree and say what failed.

``hipport verify`` chooses as it does on the command line: a tree whose
folders hold CMake or Make projects is configured and built with its own
build files (``--build``: configure, compile and link errors are billed,
build-file findings judged by what the build made of them); a tree without
one has each translation unit compiled with hipcc (``--units``), every
error of its output kept (not only the first)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

from hipport import verify
from hipport.report.built import BuildError, BuildOutcome
from hipport.verify.build import NO_GPU_CODE, BuildVerification
from hipport.verify.session import Verification

# What each build finding's code stops: configuring, compiling, linking.
# HP660, no GPU code built: the configure's choice (an option, a cache variable).
_STAGES = {"HP657": "configure", "HP658": "compile", "HP659": "link", "HP021": "compile",
           NO_GPU_CODE: "configure"}

_ERROR = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error: "
                    r"(?P<message>.*)$", re.MULTILINE)


def tree_build(converted: Path, jobs: int, timeout: float, sandbox: bool = True,
               say: Callable[[str], None] | None = None,
               configuration: verify.Configuration = verify.Configuration()) -> BuildOutcome:
    """Build ``converted`` as ``hipport verify`` would: its projects with
    their own build files (in the sandbox, unless ``sandbox`` is False),
    configured with the user's ``-D`` and make variables, else its
    translation units one by one (``timeout``: seconds per compile; a build
    step gets at least the build mode's default)."""
    request = verify.Request((converted,), jobs=jobs)
    mode, _ = verify.choose_mode(request)
    if mode == verify.BUILD:
        result = verify.run(verify.Request((converted,), jobs=jobs,
                                           timeout=max(timeout, verify.DEFAULT_BUILD_TIMEOUT),
                                           sandbox=sandbox, configuration=configuration),
                            say=say, command="hipport report --verify")
        assert isinstance(result, BuildVerification)
        return _from_build(result, converted.resolve())
    return units_build(converted, jobs, timeout, configuration)


def _from_build(result: BuildVerification, root: Path) -> BuildOutcome:
    """Every failure of every project as a BuildError; the files of the
    projects that built passed, the units a compile error names failed,
    and the build files count as run when every project configured."""
    errors: list[BuildError] = []
    failed: set[str] = set()
    passed: set[str] = set()
    configured = True
    for _, finding in result.findings:
        stage = _STAGES.get(finding.code, "compile")
        configured &= stage != "configure" or finding.code == NO_GPU_CODE  # it configured
        where = finding.location
        name = _relative(where.path, root) if where is not None else None
        errors.append(BuildError(finding.message.removeprefix("error: "), name,
                                 where.line if where is not None else 0, stage))
        unit = finding.unit or (where.path if where is not None and stage == "compile"
                                else None)
        if unit is not None and (relative := _relative(unit, root)) is not None:
            failed.add(relative)
    for project in result.projects:
        if project.ok:
            passed.update(_files_under(project.project.root, root))
        elif project.failed_step is not None and project.failed_step is project.steps[0] \
                and not project.findings:
            configured = False  # configure failed without a located error
    how = f"{result.summary}; each project built with its own build files"
    return BuildOutcome(how, tuple(dict.fromkeys(errors)), frozenset(failed),
                        frozenset(passed - failed), build_files=configured and
                        bool(result.projects))


def _files_under(folder: Path, root: Path) -> list[str]:
    names = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and (relative := _relative(path, root)) is not None:
            names.append(relative)
    return names


def units_build(converted: Path, jobs: int, timeout: float,
                configuration: verify.Configuration = verify.Configuration()) -> BuildOutcome:
    """Compile every translation unit of ``converted`` (``hipport verify
    --units``)."""
    result = verify.run(verify.Request((converted,), jobs=jobs, timeout=timeout,
                                       mode=verify.UNITS, configuration=configuration))
    assert isinstance(result, Verification)
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


# The builder `hipport report --verify` uses (a test may put a stand-in here).
BUILD = tree_build
