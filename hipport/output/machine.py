"""Findings for programs: `json` (hipport's own document), `sarif` (SARIF
2.1.0, for code scanning) and `github` (workflow-command annotations)."""
from __future__ import annotations

import json
from typing import Any, Sequence, TextIO

from hipport import sarif_log as sarif
from hipport.filenames import is_escaped, unescape
from hipport.output.model import UNUSED_SUPPRESSION, FixState, Reported
from hipport.output.options import Options
from hipport.version import __version__

_UNUSED_SUMMARY = "A `hipport: ignore` comment that suppresses nothing."
# GitHub's annotation levels for the codes' severities (the same ones SARIF
# and `hipport explain` give).
GITHUB_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def _fix(item: Reported) -> dict[str, Any] | None:
    if item.finding is None or item.fix_state is FixState.NONE:
        return None
    fix = item.finding.finding.fix
    assert fix is not None
    return {"applicability": fix.applicability.label, "applied": item.finding.applied,
            "message": fix.title or None,
            "edits": [{"start": e.start, "end": e.end,
                       "content": e.text.decode("utf-8", "replace")} for e in fix.edits]}


def render_json(items: Sequence[Reported], out: TextIO, options: Options) -> None:
    records = [{
        "path": v.path, **({"path_hex": unescape(v.path).hex()} if is_escaped(v.path) else {}),
        "line": v.line, "column": v.column,
        "end_line": v.end_line, "end_column": v.end_column,
        "code": v.code, "name": v.name, "severity": v.severity,
        "message": v.message, "api": v.api, "fingerprint": v.fingerprint or None,
        "fixable": options.fixable(v), "fix": _fix(v),
    } for v in items]
    json.dump({"version": 1, "tool": f"hipport {__version__}", options.items_key: records}, out,
              indent=2, allow_nan=False)
    out.write("\n")


def render_sarif(items: Sequence[Reported], out: TextIO, options: Options) -> None:
    codes = sorted({v.code for v in items})
    index = {code: i for i, code in enumerate(codes)}
    results: list[dict[str, Any]] = []
    for v in items:
        if v.finding is not None:
            result = sarif.finding_result(v.path, v.finding, index[v.code])
        else:
            result = sarif.location_result(v.path, v.code, v.message, index[v.code], v.line,
                                           v.column, v.end_line, v.end_column)
        if v.fingerprint:
            result["partialFingerprints"] = {"hipportFingerprint/v1": v.fingerprint}
        results.append(result)
    rules = [sarif.rule(c, _UNUSED_SUMMARY if c == UNUSED_SUPPRESSION else None) for c in codes]
    json.dump(sarif.document(__version__, rules, results), out, indent=2, allow_nan=False)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(items: Sequence[Reported], out: TextIO, options: Options) -> None:
    for v in items:
        props = (f"file={_escape_property(v.path)},line={v.line},col={v.column},"
                 f"endLine={v.end_line},endColumn={v.end_column},"
                 f"title={_escape_property(f'hipport {v.code} ({v.name})')}")
        out.write(f"::{GITHUB_LEVELS.get(v.severity, 'warning')} {props}::"
                  f"{_escape_data(v.message)}\n")
