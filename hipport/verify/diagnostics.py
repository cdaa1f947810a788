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
from threading import Event
from typing import Iterable, Iterator

from hipport.stopping import raise_if_stopped

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


def first_error(output: str, stop: Event | None = None) -> CompilerError | None:
    """The first error in ``output`` (stderr), None when there is none."""
    return next((error for _, error in errors(output.splitlines(), stop)), None)


@dataclass
class _Open:
    """An error read up to its line: its notes and its side come after it."""

    index: int
    message: str
    file: str | None
    line: int
    column: int
    included_from: tuple[Included, ...]
    fatal: bool
    notes: list[Included] | None  # None: an error without a location has none

    def closed(self, target: str | None) -> tuple[int, CompilerError]:
        return self.index, CompilerError(self.message, self.file, self.line, self.column,
                                         self.included_from, target, self.fatal,
                                         tuple(self.notes or ()))


def errors(lines: Iterable[str], stop: Event | None = None
           ) -> Iterator[tuple[int, CompilerError]]:
    """Every error of a compiler's output, with the index of its line.

    One pass: an error's notes are those up to the next error or count
    line, its side is named by the first count line after it (Clang writes
    one per compilation, GCC none), so errors wait in ``waiting`` until
    that line comes or the output ends.  ``stop``, once set, ends the
    reading (``Stopped``) at the next line."""
    chain: list[Included] = []
    group = 0  # where GCC's group of ``from`` lines starts in the chain
    waiting: list[_Open] = []
    noting: list[Included] | None = None  # the notes of the last located error
    previous_included = False
    for i, line in enumerate(lines):
        raise_if_stopped(stop)
        # Each pattern needs its word: most lines are tested with ``in`` alone.
        erroneous = "error: " in line
        located = _LOCATED.match(line) if erroneous else None
        unlocated = _UNLOCATED.match(line) if erroneous and not located else None
        generated = _GENERATED.match(line.strip()) if " generated" in line and (
            waiting or noting is not None) else None
        if located or unlocated or generated:
            noting = None
        elif noting is not None and "note: " in line:
            note = _NOTE.match(line)
            if note:
                noting.append(Included(note["file"], int(note["line"])))
        if generated:
            target = generated["target"] or "host"
            yield from (error.closed(target) for error in waiting)
            waiting = []
        included = _INCLUDED.match(line) if "from " in line else None
        was_included, previous_included = previous_included, included is not None
        if included:
            if line.startswith("In file included from") and not was_included:
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
        if located:
            noting = []
            waiting.append(_Open(i, located["message"].strip(), located["file"],
                                 int(located["line"]), int(located["column"] or 0),
                                 tuple(chain), located["kind"] == "fatal error", noting))
            chain = []
            continue
        if unlocated:
            tool = unlocated["tool"]
            message = unlocated["message"].strip()
            waiting.append(_Open(i, f"{tool}: {message}" if tool else message, None, 0, 0,
                                 (), unlocated["kind"] == "fatal error", None))
            chain = []
            continue
        if not line.startswith(" "):
            chain = []
    yield from (error.closed(None) for error in waiting)
