"""Terminal summary: rich tables, the most important first.

The headline, then the few things to do first (the costliest ledger APIs
and open hazards), then the tables; rows where nothing is left to do are
left out (the other formats list them), and a `file:line` is never wrapped."""
from __future__ import annotations

from typing import Sequence, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from hipport.output.console import PipeConsole
from hipport.report import view
from hipport.report.ledger import LedgerRow
from hipport.report.model import Report
from hipport.words import plural

TOP_TERMINAL = 15  # rows per table on a terminal; the other formats list more
# Narrower than this, the ledger's eight columns leave a few characters to each
# name: it is printed as a list instead, a location on its own line.
NARROW = 100


def _table(title: str, *columns: str, whole: dict[str, int] | None = None) -> Table:
    """``whole``: columns never wrapped or shrunk, with their widest cell."""
    table = Table(title=title, title_justify="left", title_style="bold")
    for i, column in enumerate(columns):
        keep = (whole or {}).get(column)
        table.add_column(column, justify="left" if i == 0 or column in _LEFT else "right",
                         overflow="fold", no_wrap=keep is not None,
                         min_width=max(keep or 0, len(column)) if keep is not None else None)
    return table


def _widest(cells: list[str]) -> int:
    return max((len(c) for c in cells), default=0)


def _ledger_list(console: Console, title: str, rows: Sequence[LedgerRow],
                 firsts: list[str]) -> None:
    """The ledger on a narrow terminal: one API a line, its first location
    on the next (never wrapped, however long)."""
    console.print(f"[bold]{escape(title)}[/bold]")
    for row, first in zip(rows, firsts):
        uses = plural(row.occurrences, "use")
        console.print(f"  [bold]{escape(row.cuda_name)}[/bold] {row.priority} · {row.library} · "
                      f"{row.status} · {uses} in {plural(row.files, 'file')} · "
                      f"{view.days(row.days)} days", highlight=False)
        console.print(f"      {escape(first)}", soft_wrap=True, highlight=False)


def _next_steps(console: Console, report: Report) -> None:
    steps = view.next_steps(report)
    if not steps:
        return
    console.print("[bold]Next steps[/bold] (what unblocks the build first):")
    for i, step in enumerate(steps, 1):
        where = f" at {step.where}" if step.where else ""
        console.print(f"  {i}. [bold]{escape(step.what)}[/bold] ({escape(step.detail)}, "
                      f"{view.days(step.days)} days){escape(where)}: `{escape(step.hint)}`",
                      soft_wrap=True, highlight=False)
    if report.totals.refs_converted:
        console.print(f"  Then `hipport convert` applies the "
                      f"{plural(report.totals.refs_converted, 'automatic conversion')}.",
                      highlight=False)


def _effort(console: Console, report: Report) -> None:
    e = report.effort
    lines = e.lines[:TOP_TERMINAL]
    firsts = [line.locations[0] if line.locations else "" for line in lines]
    effort = _table(f"Effort estimate (person-days, {e.basis})", "Kind", "Item", "Quantity",
                    "Basis", "Low", "Likely", "High", "First location",
                    whole={"First location": _widest(firsts)})
    for line, first in zip(lines, firsts):
        effort.add_row(view.KINDS.get(line.kind, line.kind), line.item, str(line.quantity),
                       line.basis, view.days(line.low), view.days(line.days),
                       view.days(line.high), first)
    if len(e.lines) > len(lines):
        rest = e.lines[len(lines):]
        effort.add_row("", f"{plural(len(rest), 'more line')} (--format json lists them)", "",
                       "", view.days(sum(x.low for x in rest)),
                       view.days(sum(x.days for x in rest)),
                       view.days(sum(x.high for x in rest)), "")
    if e.contingency:
        effort.add_row("", "contingency", "", f"{e.contingency:.0%}", "",
                       view.days(e.contingency_days), "", "")
    effort.add_row("", "[bold]total[/bold]", "", "", f"[bold]{view.days(e.low)}[/bold]",
                   f"[bold]{view.days(e.total)}[/bold]", f"[bold]{view.days(e.high)}[/bold]", "")
    console.print(effort)


_LEFT = {"Status", "Library", "ROCm", "First location", "Name", "Severity", "Basis",
         "Priority", "Action", "Kind", "Item"}


def render(report: Report, out: TextIO) -> None:
    console = PipeConsole(file=out, width=None if out.isatty() else 140, highlight=False)
    t = report.totals
    console.print(f"[bold]CUDA to HIP migration report[/bold]: {', '.join(report.paths)}")
    console.print(view.headline(report))
    console.print(f"{view.coverage_note(report)} Basis: {report.effort.basis_detail}.",
                  highlight=False)
    _next_steps(console, report)
    summary = _table("Summary", "Measure", "Value")
    for measure, value in (
        ("Files", f"{t.files} ({report.outcomes['converted']} converted, "
                  f"{report.outcomes['unchanged']} unchanged, {report.outcomes['failed']} "
                  f"failed, {report.outcomes['skipped']} skipped)"),
        ("Lines (unchanged / changed)", f"{t.lines} ({t.unchanged_lines} / {t.changed_lines})"),
        ("CUDA references", str(t.refs)),
        ("Converted automatically", str(t.refs_converted)),
        ("Unconverted", str(t.refs_unconverted)),
        ("Conversion rate", view.percent(t.conversion_rate)),
        ("Reuse rate", view.percent(t.reuse_rate)),
        ("Open findings", str(t.open_findings)),
        ("Estimated effort", f"{view.effort_span(report)} person-days"),
    ):
        summary.add_row(measure, value)
    console.print(summary)

    if report.ledger:
        rows = report.ledger[:TOP_TERMINAL]
        firsts = [row.locations[0] + (f" (+{row.occurrences - 1})" if row.occurrences > 1
                                      else "") for row in rows]
        title = f"Unmapped-API ledger ({plural(len(report.ledger), 'API')})"
        if console.width < NARROW:
            _ledger_list(console, title, rows, firsts)
        else:
            ledger = _table(title, "CUDA API", "Priority", "Library", "Status", "Uses",
                            "Files", "Days", "First location",
                            whole={"First location": _widest(firsts)})
            for row, first in zip(rows, firsts):
                ledger.add_row(row.cuda_name, row.priority, row.library, row.status,
                               str(row.occurrences), str(row.files), view.days(row.days), first)
            console.print(ledger)

    open_groups = [g for g in report.findings if g.open]
    if open_groups:
        findings = _table("Portability hazards and other open findings", "Code", "Name",
                          "Severity", "Found", "Open", "Files", "Days")
        for g in open_groups:
            findings.add_row(g.code, g.name, g.severity, str(g.count), str(g.open),
                             str(g.files), view.days(g.days))
        console.print(findings)
    done = [g for g in report.findings if not g.open]
    if done:
        n = sum(g.count for g in done)
        console.print(f"{plural(n, 'more finding')} of {plural(len(done), 'code')} "
                      f"({', '.join(g.code for g in done)}) {'is' if n == 1 else 'are'} fixed "
                      "by `hipport convert`; --format md or json lists them.", highlight=False)

    if report.strategies:
        table = _table("Strategies side by side (docs/single-source.md)", "Strategy",
                       "Files touched", "Lines changed", "Names mapped", "Unconverted refs",
                       "Left unconverted")
        for way in report.strategies:
            table.add_row(way.strategy, str(way.files_touched),
                          str(way.lines_changed) + (f" ({way.header_lines} in the header)"
                                                    if way.header_lines else ""),
                          str(way.names_mapped), str(way.refs_unconverted),
                          view.names(way.unconverted))
        console.print(table)

    libraries = _table("Libraries", "CUDA library", "ROCm", "Files", "References",
                       "Unconverted", "Conversion")
    for lib in report.libraries:
        libraries.add_row(lib.library, lib.rocm or "none known", str(lib.files), str(lib.refs),
                          str(lib.refs_unconverted), view.percent(lib.conversion_rate))
    console.print(libraries)

    _effort(console, report)

    work = view.files_needing_work(report, TOP_TERMINAL)
    if work:
        files = _table("Files with the most work left", "File", "Unconverted", "Open findings",
                       "Conversion", "Reuse", whole={"File": _widest([f.path for f in work])})
        for f in work:
            files.add_row(f.path, str(f.tally.refs_unconverted), str(f.tally.open_findings),
                          view.percent(f.tally.conversion_rate), view.percent(f.tally.reuse_rate))
        console.print(files)
    console.print("Formulas and effort weights: docs/report.md; full data: --format json.")
