"""CSV: the unmapped-API ledger, one row per API (spreadsheet-friendly)."""
from __future__ import annotations

import csv
from typing import TextIO

from hipport.report.model import Report

COLUMNS = ("priority", "cuda_name", "library", "status", "code", "hip_name", "occurrences",
           "files", "days", "first_locations", "note", "action")


def render(report: Report, out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in report.ledger:
        writer.writerow((row.priority, row.cuda_name, row.library, row.status, row.code,
                         row.hip_name or "", row.occurrences, row.files, f"{row.days:.3f}",
                         " ".join(row.locations), row.note or "", row.action))
