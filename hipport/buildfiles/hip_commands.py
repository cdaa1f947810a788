"""The sources a command line gives a HIP compiler: hipcc (after ``cd DIR
&&``, ``VAR=value`` or a launcher such as ``ccache``), or a Clang with
``-x hip`` or ``--offload-arch``.  What ``hipport verify`` counts as GPU
code a build compiled: in make's log (the recipes it ran), and in the
commands of a CMake project's custom commands (a code object built with
``hipcc --genco``)."""
from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from hipport.buildfiles.languages import CXX_SUFFIXES

_COMMANDS = re.compile(r"&&|\|\||;|\|")
_HIPCC = re.compile(r"^hipcc(?:\.pl|\.bin)?$")
_CLANG = re.compile(r"^(?:amd)?clang\+\+(?:-\d+)?$|^(?:amd)?clang(?:-\d+)?$")
_ASSIGNMENT = re.compile(r"^\w+=")
_LAUNCHERS = frozenset({"ccache", "sccache", "distcc", "env", "time", "nice", "exec"})
_SOURCES = CXX_SUFFIXES | {".cu", ".hip", ".c"}


def hip_sources(line: str, clang: bool = True) -> list[tuple[str | None, str]]:
    """(the folder a ``cd`` before it named, the source) for each source a
    command of ``line`` gives a HIP compiler; ``clang``: a Clang with
    ``-x hip`` or ``--offload-arch`` counts too."""
    found: list[tuple[str | None, str]] = []
    folder: str | None = None
    for command in _COMMANDS.split(line):
        try:
            words = shlex.split(command)
        except ValueError:
            words = command.split()
        if words[:1] == ["cd"] and len(words) == 2:
            folder = words[1]
            continue
        found += [(folder, source) for source in _given(words, clang)]
    return found


def _given(words: list[str], clang: bool) -> list[str]:
    while words and (_ASSIGNMENT.match(words[0]) or words[0] in _LAUNCHERS):
        words = words[1:]  # VAR=value hipcc ..., ccache hipcc ...
    if not words:
        return []
    program = PurePosixPath(words[0]).name
    if not _HIPCC.match(program) and not (
            clang and _CLANG.match(program) and ("hip" in words or any(
                w.startswith("--offload-arch") for w in words))):
        return []
    return [w for i, w in enumerate(words[1:], 1)
            if PurePosixPath(w).suffix in _SOURCES and words[i - 1] != "-o"]
