"""Markdown: the report as a document (tables in GitHub-flavoured Markdown)."""
from __future__ import annotations

from typing import TextIO

from hipport.report import view
from hipport.report.model import Report
from hipport.report.templating import environment


def render(report: Report, out: TextIO) -> None:
    files = list(report.files) if len(report.files) <= view.TOP_FILES \
        else view.files_needing_work(report)
    template = environment(autoescape=False).get_template("report.md.j2")
    out.write(template.render(r=report, headline=view.headline(report), files=files,
                              all_files=len(files) == len(report.files),
                              ledger=report.ledger[:view.TOP_LEDGER],
                              coverage=view.coverage_note(report), span=view.effort_span(report),
                              steps=view.next_steps(report), kinds=view.KINDS))
