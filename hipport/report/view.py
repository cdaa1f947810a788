"""Presentation helpers shared by the human formats (text, Markdown, HTML)."""
from __future__ import annotations

from hipport.report.model import FileReport, Report

TOP_FILES = 25  # files listed by the human formats (JSON lists them all)
TOP_LEDGER = 200  # ledger rows listed by the human formats (JSON and CSV list them all)


def percent(rate: float) -> str:
    return f"{rate * 100:.1f} %"


def days(value: float) -> str:
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def files_needing_work(report: Report, limit: int = TOP_FILES) -> list[FileReport]:
    """The files with the most work left: unconverted references, then open findings."""
    ranked = sorted(report.files, key=lambda f: (-f.tally.refs_unconverted,
                                                 -f.tally.open_findings, f.path))
    return [f for f in ranked if f.tally.refs_unconverted or f.tally.open_findings][:limit]


def headline(report: Report) -> str:
    t = report.totals
    return (f"{t.files} files, {t.lines} lines: {t.refs_converted} of {t.refs} CUDA references "
            f"convert automatically ({percent(t.conversion_rate)}), {t.refs_unconverted} left; "
            f"{percent(t.reuse_rate)} of lines stay unchanged; {plural(len(report.ledger), 'API')} "
            f"in the ledger; estimated effort {days(report.effort.total)} person-days.")
