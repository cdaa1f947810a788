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


def headline(report: Report) -> str:
    t = report.totals
    return (f"{plural(t.files, 'file')}, {plural(t.lines, 'line')}: {t.refs_converted} of "
            f"{plural(t.refs, 'CUDA reference')} convert{'s' if t.refs_converted == 1 else ''} "
            f"automatically ({percent(t.conversion_rate)}), {t.refs_unconverted} left; "
            f"{percent(t.reuse_rate)} of lines stay unchanged; {plural(len(report.ledger), 'API')} "
            f"in the ledger; estimated effort {days(report.effort.total)} person-days.")


@dataclass(frozen=True)
class Step:
    """One item of "what to do first": a ledger API or an open hazard."""

    what: str  # the API or the code and its name
    detail: str  # status, uses, files
    days: float
    where: str  # the first location, "file:line"
    hint: str  # the command that says more


def next_steps(report: Report, limit: int = 5) -> list[Step]:
    """The ledger rows and open findings that cost the most, most first."""
    steps = [Step(row.cuda_name, f"{row.status}, {plural(row.occurrences, 'use')}", row.days,
                  row.locations[0] if row.locations else "",
                  f"hipport mappings show {row.cuda_name}")
             for row in report.ledger if row.days > 0]
    steps += [Step(f"{g.code} {g.name}", f"{g.severity}, {plural(g.open, 'open finding')}",
                   g.days, g.locations[0] if g.locations else "", f"hipport explain {g.code}")
              for g in report.findings if g.open and g.days > 0]
    return sorted(steps, key=lambda s: (-s.days, s.what))[:limit]


SHOWN_NAMES = 12  # names listed in a cell; the rest are counted


def names(items: tuple[str, ...], shown: int = SHOWN_NAMES) -> str:
    """``a, b, c and 4 more``; "none" when empty."""
    if not items:
        return "none"
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more
