"""`hipport verify` output: a line per failing translation unit (its first
error) and the summary line, or one JSON document (schema
docs/verify.schema.json)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, TextIO

from hipport.codes import CODES
from hipport.verify.session import Location, UnitResult, Verification
from hipport.version import __version__

SCHEMA_ID = "hipport-verify/1"
Shown = Callable[[Path], str]


def _at(location: Location | None, shown: Shown) -> str:
    if location is None:
        return ""
    column = f":{location.column}" if location.column else ""
    return f"{shown(location.path)}:{location.line}{column}"


def finding_lines(result: UnitResult, shown: Shown, others: int = 0) -> list[str]:
    """``tree/file.cu:12:5: HP020 error: ...`` and what places it; ``others``
    more units failed at the same place with the same error."""
    lines = [f"{_at(result.location, shown)}: {result.code} {result.message}"]
    if result.location is not None and result.location.path != result.unit.path:
        more = f" and {others} more with the same first error" if others else ""
        lines.append(f"  in translation unit {shown(result.unit.path)}{more}")
    if result.original is not None:
        lines.append(f"  original: {_at(result.original, shown)}")
    return lines


def text_lines(verification: Verification, shown: Shown) -> list[str]:
    """One finding per failing unit, except that units failing at the same
    line of a shared header with the same error are one finding (one broken
    utility header can stop a hundred units)."""
    groups: dict[tuple[object, ...], list[UnitResult]] = {}
    for result in verification.failed:
        shared = result.location is not None and result.location.path != result.unit.path
        key = (result.location, result.message) if shared else (result.unit.path,)
        groups.setdefault(key, []).append(result)
    return [line for group in groups.values()
            for line in finding_lines(group[0], shown, len(group) - 1)]


def _location_json(location: Location | None, shown: Shown) -> dict[str, object] | None:
    if location is None:
        return None
    return {"path": shown(location.path), "line": location.line, "column": location.column}


def as_json(verification: Verification, shown: Shown, exit_code: int) -> dict[str, object]:
    compiler = verification.compiler
    settings = verification.settings
    findings = []
    for r in verification.failed:
        code = CODES[r.code or "HP020"]
        error = r.error
        findings.append({
            "code": code.code, "name": code.name, "severity": code.severity.value,
            "unit": shown(r.unit.path),
            "location": _location_json(r.location, shown),
            "original": _location_json(r.original, shown),
            "message": r.message,
            "compiler": None if error is None else {
                "message": error.message, "fatal": error.fatal, "target": error.target,
                "file": error.file, "line": error.line, "column": error.column,
                "included_from": [{"file": i.file, "line": i.line}
                                  for i in error.included_from]},
            "output": r.output,
            "output_cut": r.output_cut,
        })
    return {
        "schema": SCHEMA_ID,
        "hipport_version": __version__,
        "compiler": {"path": compiler.path, "hip_version": compiler.hip_version,
                     "clang_version": compiler.clang_version, "chosen_by": compiler.chosen_by,
                     "reason": compiler.reason},
        "offload_arch": list(settings.offload_arch),
        "mode": "syntax-only" if settings.syntax_only else "compile",
        "timeout": settings.timeout,
        "summary": {"units": len(verification.results),
                    "compiled": len(verification.results) - len(verification.failed),
                    "failed": len(verification.failed),
                    "timed_out": sum(r.timed_out for r in verification.results),
                    "seconds": round(verification.seconds, 3),
                    "text": verification.summary},
        "units": [{"path": shown(r.unit.path), "ok": r.ok, "seconds": round(r.seconds, 3),
                   "flags_from": r.unit.flags_from, "command": list(r.command)}
                  for r in verification.results],
        "findings": findings,
        "exit_code": exit_code,
    }


def render_json(verification: Verification, out: TextIO, shown: Shown, exit_code: int) -> None:
    json.dump(as_json(verification, shown, exit_code), out, indent=2, ensure_ascii=False,
              allow_nan=False)
    out.write("\n")
