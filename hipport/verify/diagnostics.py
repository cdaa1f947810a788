"""The first error in a compiler's output, with where it is.

Clang (behind hipcc) writes ``file:line:col: error: message``, preceded by
one ``In file included from file:line:`` line per level of the include chain
when the error is in a header (GCC, CMake's C++ compiler, one ``In file
included from h.h:2,`` line and a ``from main.cpp:1:`` line per level
above, innermost first), and followed by notes, the source line and
``N errors generated when compiling for gfx90a.`` (device) or ``... generated.``
(host).  Driver errors (``clang: error: ...``, ``lld: error: ...``) carry no
location."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<column>\d+):)?\s*"
                      r"(?P<kind>fatal error|error): (?P<message>.*)$")
_UNLOCATED = re.compile(r"^(?:(?P<tool>[\w.+-]+): )?(?P<kind>fatal error|error): "
                        r"(?P<message>.*)$")
_INCLUDED = re.compile(r"^(?:In file included from|\s+from) (?P<file>.+?):(?P<line>\d+)[:,]$")
_NOTE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<column>\d+):)?\s*note: ")
_GENERATED = re.compile(r"^(?:\d+ warnings? and )?\d+ errors? generated"
                        r"(?: when compiling for (?P<target>[\w:+-]+))?\.$")


@dataclass(frozen=True)
class Included:
    file: str
    line: int


@dataclass(frozen=True)
class CompilerError:
    """The first error of one compilation."""

    message: str  # without "error: "
    file: str | None = None  # as the compiler wrote it (None: the driver, the linker)
    line: int = 0
    column: int = 0
    # Outermost first: the translation unit's own line, then each header's.
    included_from: tuple[Included, ...] = ()
    target: str | None = None  # "gfx90a" (device compilation), "host", None (unknown)
    fatal: bool = False
    # Where the notes that follow the error point (an instantiation's
    # "requested here"), in order: the way back from a system header.
    notes: tuple[Included, ...] = ()

    @property
    def text(self) -> str:
        """``error: ...`` as the compiler said it, with its side when known."""
        kind = "fatal error" if self.fatal else "error"
        side = f" (compiling for {self.target})" if self.target else ""
        return f"{kind}: {self.message}{side}"


def first_error(output: str) -> CompilerError | None:
    """The first error in ``output`` (stderr), None when there is none."""
    return next((error for _, error in errors(output.splitlines())), None)


def errors(lines: list[str]) -> Iterator[tuple[int, CompilerError]]:
    """Every error of a compiler's output, with the index of its line."""
    chain: list[Included] = []
    group = 0  # where GCC's group of ``from`` lines starts in the chain
    for i, line in enumerate(lines):
        included = _INCLUDED.match(line)
        if included:
            if line.startswith("In file included from") and (
                    i == 0 or not _INCLUDED.match(lines[i - 1])):
                chain = []
            if line.startswith("In file included from"):
                group = len(chain)
            chain.append(Included(included["file"], int(included["line"])))
            if line.endswith(":") and len(chain) - group > 1:
                # GCC: "In file included from a.h:2,\n    from main.cpp:1:"
                # names the includer of the error's file first; Clang's lines
                # go outermost first, as the chain does.
                chain[group:] = reversed(chain[group:])
            continue
        located = _LOCATED.match(line)
        if located:
            yield i, CompilerError(located["message"].strip(), located["file"],
                                   int(located["line"]), int(located["column"] or 0),
                                   tuple(chain), _target(lines[i + 1:]),
                                   located["kind"] == "fatal error", _notes(lines[i + 1:]))
            chain = []
            continue
        unlocated = _UNLOCATED.match(line)
        if unlocated:
            tool = unlocated["tool"]
            message = unlocated["message"].strip()
            yield i, CompilerError(f"{tool}: {message}" if tool else message,
                                   target=_target(lines[i + 1:]),
                                   fatal=unlocated["kind"] == "fatal error")
            chain = []
            continue
        if not line.startswith(" "):
            chain = []


def _notes(rest: list[str]) -> tuple[Included, ...]:
    """The notes of the first error: up to the next error or the count."""
    notes: list[Included] = []
    for line in rest:
        if _LOCATED.match(line) or _UNLOCATED.match(line) or _GENERATED.match(line.strip()):
            break
        note = _NOTE.match(line)
        if note:
            notes.append(Included(note["file"], int(note["line"])))
    return tuple(notes)


def _target(rest: list[str]) -> str | None:
    """The side the error came from: Clang ends each compilation that failed
    with a count, naming the GPU for a device compilation."""
    for line in rest:
        generated = _GENERATED.match(line.strip())
        if generated:
            return generated["target"] or "host"
    return None
