"""Migration reports: one `Report` value (model.py), many formats.

Each format is a module with `render(report, out: TextIO) -> None`; modules
are imported only when used, so rich and jinja2 stay out of `import hipport`."""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from hipport.report.model import Report


@dataclass(frozen=True)
class Format:
    name: str
    module: str
    suffix: str
    description: str

    def render(self, report: Report, out: TextIO) -> None:
        importlib.import_module(self.module).render(report, out)


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("text", "hipport.report.text", ".txt", "terminal summary (rich tables)"),
    Format("json", "hipport.report.json_format", ".json", "the full report, schema "
           "hipport-report/2"),
    Format("md", "hipport.report.markdown", ".md", "Markdown document"),
    Format("html", "hipport.report.html", ".html", "self-contained page with charts"),
    Format("csv", "hipport.report.csv_format", ".csv", "the unmapped-API ledger"),
    Format("sarif", "hipport.report.sarif", ".sarif", "SARIF 2.1.0, one result per finding"),
)}
ALIASES = {"markdown": "md"}


def render(name: str, report: Report, out: TextIO) -> None:
    FORMATS[ALIASES.get(name, name)].render(report, out)
