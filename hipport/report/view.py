"""Presentation helpers shared by the human formats (text, Markdown, HTML)."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.report.model import FileReport, Report
from hipport.words import plural

TOP_FILES = 25  # files listed by the human formats (JSON lists them all)
TOP_LEDGER = 200  # ledger rows listed by the human formats (JSON and CSV list them all)


def percent(rate: float) -> str:
    return f"{rate * 100:.1f} %"


def days(value: float) -> str:
    return f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def files_needing_work(report: Report, limit: int = TOP_FILES) -> list[FileReport]:
    """The files with the most work left: unconverted references, then open findings."""
    ranked = sorted(report.files, key=lambda f: (-f.tally.refs_unconverted,
                                                 -f.tally.open_findings, f.path))
    return [f for f in ranked if f.tally.refs_unconverted or f.tally.open_findings][:limit]


def span(low: float, likely: float, high: float) -> str:
    """``0.4-1.5 (likely 0.7)``"""
    return f"{days(low)}-{days(high)} (likely {days(likely)})"


def effort_span(report: Report) -> str:
    e = report.effort
    return span(e.low, e.total, e.high)


def headline(report: Report) -> str:
    t = report.totals
    return (f"{plural(t.files, 'file')}, {plural(t.lines, 'line')}: {t.refs_converted} of "
            f"{plural(t.refs, 'CUDA reference')} convert{'s' if t.refs_converted == 1 else ''} "
            f"automatically ({percent(t.conversion_rate)}), {t.refs_unconverted} left; "
            f"{percent(t.reuse_rate)} of lines stay unchanged; {plural(len(report.ledger), 'API')} "
            f"in the ledger; estimated effort {effort_span(report)} person-days "
            f"({report.effort.basis}).")


def coverage_note(report: Report) -> str:
    """What the estimate covers, in a sentence."""
    c = report.coverage
    if c.every_file:
        return f"The estimate covers every file: {c.basis}."
    note = f"The estimate covers what the build reaches: {c.basis}."
    if c.not_built_files:
        note += (f" Not built: {plural(c.not_built_files, 'file')}, "
                 f"{plural(c.not_built_findings, 'finding')} (billed nothing; "
                 f"{', '.join(c.not_built_paths)}"
                 + (", ..." if c.not_built_files > len(c.not_built_paths) else "") + ").")
    return note


KINDS = {"breaks-build": "blocker (build)", "changes-results": "blocker (results)",
         "review": "review"}


@dataclass(frozen=True)
class Step:
    """One item of "what to do first": a line of the estimate."""

    what: str  # the API, the code and its name, the build error
    detail: str  # kind, how many
    days: float
    where: str  # the first location, "file:line"
    hint: str  # the command that says more


def next_steps(report: Report, limit: int = 5) -> list[Step]:
    """The estimate's lines in the order that unblocks the build first:
    build files, then compile errors, then what changes results, the costliest
    first within each; then the largest review items."""
    lines = [line for line in report.effort.lines if line.days > 0]
    return [Step(line.item, f"{KINDS.get(line.kind, line.kind)}: {line.quantity} x {line.basis}",
                 line.days,
                 line.locations[0] if line.locations else "", line.hint)
            for line in lines[:limit]]


SHOWN_NAMES = 12  # names listed in a cell; the rest are counted


def names(items: tuple[str, ...], shown: int = SHOWN_NAMES) -> str:
    """``a, b, c and 4 more``; "none" when empty."""
    if not items:
        return "none"
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more
