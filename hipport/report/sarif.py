"""SARIF 2.1.0: every finding as a result, every code used as a rule.

Fix regions are byte offsets (`byteOffset`/`byteLength`), which is what
hipport's edits are, so no file contents are needed to write them."""
from __future__ import annotations

import json
from typing import Any, TextIO
from urllib.parse import quote

from hipport.codes import CODES
from hipport.filenames import unescape
from hipport.findings import LocatedFinding
from hipport.report.model import Report, files_findings

SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
INFORMATION_URI = "https://github.com/hipport/hipport"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _uri(path: str) -> tuple[str, str | None]:
    # ``path`` is shown escaped (hipport.filenames); the URI percent-encodes
    # the name's exact bytes.
    name = unescape(path)
    if name.startswith(b"/"):
        return "file://" + quote(name), None
    return quote(name), "%SRCROOT%"


def _artifact(path: str) -> dict[str, str]:
    uri, base = _uri(path)
    return {"uri": uri, **({"uriBaseId": base} if base else {})}


def _rule(code: str) -> dict[str, Any]:
    known = CODES.get(code)
    summary = known.summary if known else code
    rule: dict[str, Any] = {
        "id": code, "name": known.name if known else code.lower(),
        "shortDescription": {"text": summary},
        "defaultConfiguration": {"level": LEVELS[known.severity.value] if known else "warning"},
        "helpUri": f"{INFORMATION_URI}/blob/main/docs/codes/{code}.md",
    }
    if known is not None and known.explanation:
        rule["fullDescription"] = {"text": known.explanation.strip()}
    return rule


def _result(path: str, f: LocatedFinding, index: int) -> dict[str, Any]:
    known = CODES.get(f.code)
    region = {"startLine": f.location.line, "startColumn": f.location.column,
              "endLine": f.end_location.line, "endColumn": f.end_location.column}
    result: dict[str, Any] = {
        "ruleId": f.code, "ruleIndex": index,
        "level": LEVELS[known.severity.value] if known else "warning",
        "message": {"text": f.finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(path),
                                            "region": region}}],
        "properties": {"applied": f.applied},
    }
    fix = f.finding.fix
    if fix is not None and fix.edits:
        result["fixes"] = [{
            "description": {"text": fix.title or f.finding.message},
            "artifactChanges": [{
                "artifactLocation": _artifact(path),
                "replacements": [{
                    "deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start},
                    "insertedContent": {"text": e.text.decode("utf-8", "replace")},
                } for e in fix.edits],
            }],
        }]
    if f.finding.cuda_name:
        result["properties"]["cudaName"] = f.finding.cuda_name
    return result


def sarif_dict(report: Report) -> dict[str, Any]:
    codes = sorted({f.code for _, f in files_findings(report.files)})
    index = {code: i for i, code in enumerate(codes)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hipport", "version": report.version,
                                "informationUri": INFORMATION_URI,
                                "rules": [_rule(c) for c in codes]}},
            "columnKind": "unicodeCodePoints",
            "results": [_result(path, f, index[f.code])
                        for path, f in files_findings(report.files)],
        }],
    }


def render(report: Report, out: TextIO) -> None:
    json.dump(sarif_dict(report), out, indent=2, allow_nan=False)
    out.write("\n")
