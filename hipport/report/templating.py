"""The jinja2 environment for the template-based formats."""
from __future__ import annotations

import jinja2

from hipport.report import view
from hipport.words import plural


def _md(value: object) -> str:
    # A table cell: pipes would end the cell, newlines the row.
    return str(value).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("hipport.report", "templates"),
        autoescape=autoescape, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
    )
    env.filters.update(percent=view.percent, days=view.days, md=_md, names=view.names,
                       plural=plural)
    return env
