"""Terminal summary: rich tables, the most important first."""
from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.table import Table

from hipport.report import view
from hipport.report.model import Report

TOP_TERMINAL = 15  # rows per table on a terminal; the other formats list more


def _table(title: str, *columns: str) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold")
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 or column in _LEFT else "right",
                         overflow="fold")
    return table


_LEFT = {"Status", "Library", "ROCm", "First location", "Name", "Severity", "Basis",
         "Priority", "Action"}


def render(report: Report, out: TextIO) -> None:
    console = Console(file=out, width=None if out.isatty() else 140, highlight=False)
    t = report.totals
    console.print(f"[bold]CUDA to HIP migration report[/bold]: {', '.join(report.paths)}")
    console.print(view.headline(report))
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
        ("Estimated effort", f"{view.days(report.effort.total)} person-days"),
    ):
        summary.add_row(measure, value)
    console.print(summary)

    if report.ledger:
        ledger = _table(f"Unmapped-API ledger ({len(report.ledger)} APIs)", "CUDA API",
                        "Priority", "Library", "Status", "Uses", "Files", "Days",
                        "First location")
        for row in report.ledger[:TOP_TERMINAL]:
            ledger.add_row(row.cuda_name, row.priority, row.library, row.status,
                           str(row.occurrences), str(row.files), view.days(row.days),
                           row.locations[0] + (f" (+{row.occurrences - 1})"
                                               if row.occurrences > 1 else ""))
        console.print(ledger)

    if report.findings:
        findings = _table("Portability hazards and other findings", "Code", "Name",
                          "Severity", "Found", "Open", "Files", "Days")
        for g in report.findings:
            findings.add_row(g.code, g.name, g.severity, str(g.count), str(g.open),
                             str(g.files), view.days(g.days))
        console.print(findings)

    libraries = _table("Libraries", "CUDA library", "ROCm", "Files", "References",
                       "Unconverted", "Conversion")
    for lib in report.libraries:
        libraries.add_row(lib.library, lib.rocm or "none known", str(lib.files), str(lib.refs),
                          str(lib.refs_unconverted), view.percent(lib.conversion_rate))
    console.print(libraries)

    effort = _table("Effort estimate (person-days)", "Item", "Quantity", "Basis", "Days")
    for line in report.effort.lines:
        effort.add_row(line.item, str(line.quantity), line.basis, view.days(line.days))
    effort.add_row("contingency", "", f"{report.effort.contingency:.0%}",
                   view.days(report.effort.contingency_days))
    effort.add_row("[bold]total[/bold]", "", "", f"[bold]{view.days(report.effort.total)}[/bold]")
    console.print(effort)

    work = view.files_needing_work(report, TOP_TERMINAL)
    if work:
        files = _table("Files with the most work left", "File", "Unconverted", "Open findings",
                       "Conversion", "Reuse")
        for f in work:
            files.add_row(f.path, str(f.tally.refs_unconverted), str(f.tally.open_findings),
                          view.percent(f.tally.conversion_rate), view.percent(f.tally.reuse_rate))
        console.print(files)
    console.print("Formulas and effort weights: docs/report.md; full data: --format json.")
