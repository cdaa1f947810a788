"""SARIF 2.1.0, the pieces every command's SARIF output is built from:
rules from the codes, results from findings (with their fixes) or from bare
locations, and the document around them.

Fix regions are byte offsets (`byteOffset`/`byteLength`), which is what
hipport's edits are, so no file contents are needed to write them."""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from hipport.codes import CODES
from hipport.filenames import unescape
from hipport.findings import LocatedFinding

SARIF_SCHEMA = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                "sarif-schema-2.1.0.json")
INFORMATION_URI = "https://github.com/hipport/hipport"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
Json = dict[str, Any]


def document(version: str, rules: list[Json], results: list[Json]) -> Json:
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "hipport", "version": version,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }


def rule(code: str, summary: str | None = None) -> Json:
    """The rule for ``code`` (``summary`` replaces its short description)."""
    known = CODES.get(code)
    text = summary or (known.summary if known else code)
    described: Json = {
        "id": code, "name": known.name if known else code.lower(),
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": level(code)},
        "helpUri": f"{INFORMATION_URI}/blob/main/docs/codes/{code}.md",
    }
    if known is not None and known.explanation:
        described["fullDescription"] = {"text": known.explanation.strip()}
    return described


def level(code: str) -> str:
    known = CODES.get(code)
    return LEVELS[known.severity.value] if known else "warning"


def finding_result(path: str, f: LocatedFinding, rule_index: int) -> Json:
    """A finding as a result, with its fix when it has one."""
    result = location_result(path, f.code, f.finding.message, rule_index, f.location.line,
                             f.location.column, f.end_location.line, f.end_location.column)
    result["properties"] = {"applied": f.applied}
    fix = f.finding.fix
    if fix is not None and fix.edits:
        result["fixes"] = [{
            "description": {"text": fix.title or f.finding.message},
            "artifactChanges": [{
                "artifactLocation": artifact(path),
                "replacements": [{
                    "deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start},
                    "insertedContent": {"text": e.text.decode("utf-8", "replace")},
                } for e in fix.edits],
            }],
        }]
    if f.finding.cuda_name:
        result["properties"]["cudaName"] = f.finding.cuda_name
    return result


def location_result(path: str, code: str, message: str, rule_index: int, line: int,
                    column: int, end_line: int, end_column: int) -> Json:
    region = {"startLine": line, "startColumn": column, "endLine": end_line,
              "endColumn": end_column}
    return {"ruleId": code, "ruleIndex": rule_index, "level": level(code),
            "message": {"text": message},
            "locations": [{"physicalLocation": {"artifactLocation": artifact(path),
                                                "region": region}}]}


def artifact(path: str) -> Json:
    # ``path`` is shown escaped (hipport.filenames); the URI percent-encodes
    # the name's exact bytes.
    name = unescape(path)
    if name.startswith(b"/"):
        return {"uri": "file://" + quote(name)}
    return {"uri": quote(name), "uriBaseId": "%SRCROOT%"}
