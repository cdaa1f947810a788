"""CSV: the unmapped-API ledger, one row per API (spreadsheet-friendly), with
what each row is in the estimate (a blocker or review) and its days (low,
likely, high)."""
from __future__ import annotations

import csv
from typing import TextIO

from hipport.report.model import Report

COLUMNS = ("priority", "cuda_name", "library", "status", "code", "hip_name", "occurrences",
           "files", "days", "first_locations", "note", "action", "kind", "days_low", "days_high")


def render(report: Report, out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in report.ledger:
        writer.writerow((row.priority, row.cuda_name, row.library, row.status, row.code,
                         row.hip_name or "", row.occurrences, row.files, f"{row.days:.3f}",
                         " ".join(row.locations), row.note or "", row.action,
                         "blocker" if row.blocker else "review", f"{row.low:.3f}",
                         f"{row.high:.3f}"))
