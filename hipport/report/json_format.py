"""JSON: the whole report as data, schema `hipport-report/2`
(hipport/report/schema/report.schema.json)."""
from __future__ import annotations

import json
from typing import Any, TextIO

from hipport.filenames import is_escaped, unescape
from hipport.report.model import Report, Tally


def _rate(value: float) -> float:
    return round(value, 6)


def _days(value: float) -> float:
    return round(value, 3)


def _exact(path: str) -> dict[str, str]:
    """The name's bytes, when ``path`` shows it escaped (``filenames.shown``)."""
    return {"path_hex": unescape(path).hex()} if is_escaped(path) else {}


def tally_dict(t: Tally) -> dict[str, Any]:
    return {
        "files": t.files, "lines": t.lines, "changed_lines": t.changed_lines,
        "unchanged_lines": t.unchanged_lines, "refs": t.refs,
        "refs_converted": t.refs_converted, "refs_unconverted": t.refs_unconverted,
        "conversion_rate": _rate(t.conversion_rate), "reuse_rate": _rate(t.reuse_rate),
        "open_findings": t.open_findings,
    }


def report_dict(r: Report) -> dict[str, Any]:
    e, c = r.effort, r.coverage
    return {
        "schema": r.schema,
        "tool": {"name": "hipport", "version": r.version},
        "paths": list(r.paths),
        "settings": dict(r.settings),
        "totals": {**tally_dict(r.totals), "outcomes": dict(r.outcomes)},
        "libraries": [{
            "library": lib.library, "rocm": lib.rocm, "files": lib.files, "refs": lib.refs,
            "refs_converted": lib.refs_converted, "refs_unconverted": lib.refs_unconverted,
            "conversion_rate": _rate(lib.conversion_rate), "ledger_apis": lib.ledger_apis,
        } for lib in r.libraries],
        "ledger": [{
            "cuda_name": row.cuda_name, "library": row.library, "status": row.status,
            "code": row.code, "hip_name": row.hip_name, "occurrences": row.occurrences,
            "files": row.files, "locations": list(row.locations), "note": row.note,
            "action": row.action, "days": _days(row.days), "priority": row.priority,
            "kind": "blocker" if row.blocker else "review", "low_days": _days(row.low),
            "high_days": _days(row.high),
        } for row in r.ledger],
        "findings": [{
            "code": g.code, "name": g.name, "summary": g.summary, "severity": g.severity,
            "count": g.count, "fixed": g.fixed, "open": g.open, "files": g.files,
            "locations": list(g.locations), "days": _days(g.days),
        } for g in r.findings],
        "effort": {
            "basis": e.basis, "basis_detail": e.basis_detail,
            "low_days": _days(e.low), "likely_days": _days(e.total), "high_days": _days(e.high),
            "blocker_days": _days(e.blocker_days),
            "lines": [{"item": x.item, "kind": x.kind, "stage": x.stage,
                       "quantity": x.quantity, "basis": x.basis, "low_days": _days(x.low),
                       "days": _days(x.days), "high_days": _days(x.high),
                       "locations": list(x.locations), "hint": x.hint} for x in e.lines],
            "subtotal_days": _days(e.subtotal), "contingency": e.contingency,
            "contingency_days": _days(e.contingency_days), "total_days": _days(e.total),
            "assumptions": list(e.assumptions),
        },
        "coverage": {
            "basis": c.basis, "every_file": c.every_file,
            "not_built": {"files": c.not_built_files, "findings": c.not_built_findings,
                          "lines": c.not_built_lines, "paths": list(c.not_built_paths)},
        },
        "directories": [{"path": d.name, **tally_dict(d.tally)} for d in r.directories],
        "files": [{"path": f.path, **_exact(f.path), "outcome": f.outcome, "built": f.built,
                   **tally_dict(f.tally)} for f in r.files],
        "skipped": list(r.skipped),
        "strategies": [{
            "strategy": row.strategy, "files_touched": row.files_touched,
            "lines_changed": row.lines_changed, "header_lines": row.header_lines,
            "names_mapped": row.names_mapped, "refs_unconverted": row.refs_unconverted,
            "unconverted": list(row.unconverted),
        } for row in r.strategies],
    }


def render(report: Report, out: TextIO) -> None:
    json.dump(report_dict(report), out, indent=2, allow_nan=False)
    out.write("\n")
