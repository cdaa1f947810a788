"""Findings output: one model (``Reported``), many formats.

Every format is a function ``render(items, out, options)`` registered in
``FORMATS``; ``convert`` and ``check`` list their findings through it, so
`--output-format json` means the same document in both commands (only the
name of its list differs: ``findings`` or ``violations``)."""
from __future__ import annotations

from typing import Callable, Sequence, TextIO

from hipport.output.machine import render_github, render_json, render_sarif
from hipport.output.model import FixState, Reported
from hipport.output.options import Options
from hipport.output.text import render_concise, render_full

Renderer = Callable[[Sequence[Reported], TextIO, Options], None]

FORMATS: dict[str, Renderer] = {
    "concise": render_concise,
    "text": render_full,
    "json": render_json,
    "sarif": render_sarif,
    "github": render_github,
}
# Formats written for people: to stderr next to a diff, coloured on a terminal.
HUMAN_FORMATS = frozenset({"text", "concise"})


def render(fmt: str, items: Sequence[Reported], out: TextIO, options: Options = Options()) -> None:
    FORMATS[fmt](items, out, options)


__all__ = ["FORMATS", "HUMAN_FORMATS", "FixState", "Options", "Renderer", "Reported", "render"]
