"""Colour: whether to use it, and the few styles findings and diffs use.

``--color auto`` (the default) colours a terminal only: not a pipe or a file,
not ``TERM=dumb``, not when ``NO_COLOR`` is set (https://no-color.org);
``always`` and ``never`` decide regardless (``always`` wins over
``NO_COLOR``: the flag is the user's latest word)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TextIO

import click

COLOR_CHOICES = ("auto", "always", "never")
_SEVERITY_COLORS = {"error": "red", "warning": "yellow", "info": "cyan"}


def interactive(stream: TextIO) -> bool:
    """A terminal that can redraw a line (a progress bar): not a pipe or a
    file, not ``TERM=dumb``."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty()) and os.environ.get("TERM") != "dumb"


def color_wanted(choice: str, stream: TextIO) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return interactive(stream)


@dataclass(frozen=True)
class Palette:
    enabled: bool = False

    def _style(self, text: str, fg: str | None = None, bold: bool | None = None,
               dim: bool | None = None) -> str:
        return click.style(text, fg=fg, bold=bold, dim=dim) if self.enabled else text

    def path(self, text: str) -> str:
        return self._style(text, bold=True)

    def code(self, text: str, severity: str) -> str:
        return self._style(text, fg=_SEVERITY_COLORS.get(severity, "yellow"), bold=True)

    def marker(self, text: str) -> str:
        return self._style(text, fg="cyan")

    def dim(self, text: str) -> str:
        return self._style(text, dim=True)

    def good(self, text: str) -> str:
        return self._style(text, fg="green")

    def bad(self, text: str) -> str:
        return self._style(text, fg="red")

    def strong(self, text: str) -> str:
        return self._style(text, bold=True)


_DIFF_STYLES = ((b"+++", b"\x1b[1m"), (b"---", b"\x1b[1m"), (b"@@", b"\x1b[36m"),
                (b"+", b"\x1b[32m"), (b"-", b"\x1b[31m"))
_RESET = b"\x1b[0m"


def color_diff(diff: bytes) -> bytes:
    """A unified diff with its headers, hunks, removals and additions coloured
    (bytes: the diff carries the file's own encoding)."""
    out = []
    for line in diff.splitlines(keepends=True):
        body = line.rstrip(b"\r\n")
        ending = line[len(body):]
        for prefix, start in _DIFF_STYLES:
            if body.startswith(prefix):
                line = start + body + _RESET + ending
                break
        out.append(line)
    return b"".join(out)
