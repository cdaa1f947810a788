"""Printing violations, through the findings formats every command shares
(``hipport.output``): `text` (path:line:col: CODE message), `concise`,
`json`, `sarif` (for code scanning) and `github` (annotations)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence, TextIO

from hipport.check.model import Violation
from hipport.output import FORMATS as _ALL
from hipport.output import Options
from hipport.output import render as _render

FORMATS = tuple(_ALL)


def render(fmt: str, violations: Sequence[Violation], out: TextIO,
           options: Options = Options()) -> None:
    # Nothing is written by a check: a fix is one `hipport convert` would make.
    _render(fmt, violations, out, replace(options, fixes_written=False, items_key="violations"))
