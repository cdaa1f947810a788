"""Printing violations: `text` (path:line:col: CODE message), `json`, `sarif`
(for code scanning) and `github` (workflow-command annotations)."""
from __future__ import annotations

import json
from typing import Any, Callable, Sequence, TextIO

from hipport import __version__, sarif
from hipport.check.model import UNUSED_SUPPRESSION, Violation
from hipport.codes import CODES
from hipport.filenames import is_escaped, unescape

FORMATS = ("text", "json", "sarif", "github")


def render(fmt: str, violations: Sequence[Violation], out: TextIO) -> None:
    RENDERERS[fmt](violations, out)


def _text(violations: Sequence[Violation], out: TextIO) -> None:
    for v in violations:
        out.write(f"{v.path}:{v.line}:{v.column}: {v.code} {v.message}\n")


def _severity(code: str) -> str:
    known = CODES.get(code)
    return known.severity.value if known is not None else "warning"


def _name(code: str) -> str:
    known = CODES.get(code)
    return known.name if known is not None else code


def _json(violations: Sequence[Violation], out: TextIO) -> None:
    items = [{
        "path": v.path, **({"path_hex": unescape(v.path).hex()} if is_escaped(v.path) else {}),
        "line": v.line, "column": v.column,
        "end_line": v.end_line, "end_column": v.end_column,
        "code": v.code, "name": _name(v.code), "severity": _severity(v.code),
        "message": v.message, "api": v.api, "fingerprint": v.fingerprint or None,
    } for v in violations]
    json.dump({"version": 1, "tool": f"hipport {__version__}", "violations": items}, out,
              indent=2, allow_nan=False)
    out.write("\n")


def _sarif(violations: Sequence[Violation], out: TextIO) -> None:
    codes = sorted({v.code for v in violations})
    index = {code: i for i, code in enumerate(codes)}
    results: list[dict[str, Any]] = []
    for v in violations:
        if v.finding is not None:
            result = sarif.finding_result(v.path, v.finding, index[v.code])
        else:
            result = sarif.location_result(v.path, v.code, v.message, index[v.code], v.line,
                                           v.column, v.end_line, v.end_column)
        if v.fingerprint:
            result["partialFingerprints"] = {"hipportFingerprint/v1": v.fingerprint}
        results.append(result)
    unused = "A `hipport: ignore` comment that suppresses nothing."
    rules = [sarif.rule(c, unused if c == UNUSED_SUPPRESSION else None) for c in codes]
    json.dump(sarif.document(__version__, rules, results), out, indent=2, allow_nan=False)
    out.write("\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(violations: Sequence[Violation], out: TextIO) -> None:
    for v in violations:
        props = (f"file={_escape_property(v.path)},line={v.line},col={v.column},"
                 f"endLine={v.end_line},endColumn={v.end_column},"
                 f"title={_escape_property(f'hipport {v.code} ({_name(v.code)})')}")
        out.write(f"::error {props}::{_escape_data(v.message)}\n")


RENDERERS: dict[str, Callable[[Sequence[Violation], TextIO], None]] = {
    "text": _text, "json": _json, "sarif": _sarif, "github": _github,
}
