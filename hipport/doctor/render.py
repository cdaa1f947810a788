"""Doctor's output formats over one Diagnosis: a text table with ✓ ✗ ! and
one line of advice per problem, and JSON (schema docs/doctor.schema.json)."""
from __future__ import annotations

import json
from typing import Callable, TextIO

from hipport.doctor.model import SCHEMA_ID, Check, Diagnosis, Status, format_version
from hipport.version import __version__

TITLES = {"rocm": "ROCm", "compiler": "Compilers and build tools", "libraries": "Libraries",
          "devices": "Devices", "frameworks": "Frameworks", "tree": "What the tree needs"}


def render_text(diagnosis: Diagnosis, out: TextIO) -> None:
    width = max((len(c.title) for c in diagnosis.checks), default=10) + 2
    where = f"ROCm {format_version(diagnosis.rocm_version)} at {diagnosis.rocm_root}" \
        if diagnosis.rocm_root else "no ROCm found"
    out.write(f"hipport doctor {__version__} · {where}\n")
    section = None
    for check in diagnosis.checks:
        if check.section != section:
            section = check.section
            out.write(f"\n{TITLES.get(section, section)}\n")
        out.write(f"  {check.status.mark} {check.title.ljust(width)}{check.detail}\n")
        if check.status.is_problem and check.advice:
            out.write(f"    {' ' * width}→ {check.advice}\n")
    out.write(f"\n{summary_line(diagnosis)}\n")


def summary_line(diagnosis: Diagnosis) -> str:
    problems = [c for c in diagnosis.checks if c.status.is_problem]
    warnings = sum(c.status is Status.WARN for c in problems)
    failed = diagnosis.failed
    counts = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}" \
        f" ({warnings} warning{'s' if warnings != 1 else ''})"
    if failed:
        names = ", ".join(f"{c.title} ({_package(c)})" if _package(c) else c.title
                          for c in failed)
        return f"{counts}. Missing: {names}."
    if diagnosis.tree:
        return f"{counts}. Everything the tree needs is there."
    return f"{counts}."


def _package(check: Check) -> str:
    return dict(check.data).get("package", "")


def as_json(diagnosis: Diagnosis) -> dict[str, object]:
    counts = {status.value: sum(c.status is status for c in diagnosis.checks)
              for status in Status}
    return {
        "schema": SCHEMA_ID,
        "hipport_version": __version__,
        "tree": list(diagnosis.tree),
        "rocm": {"root": diagnosis.rocm_root,
                 "version": format_version(diagnosis.rocm_version)
                 if diagnosis.rocm_version else None},
        "exit_code": diagnosis.exit_code,
        "checks": [{"section": c.section, "id": c.id, "title": c.title,
                    "status": c.status.value, "detail": c.detail, "advice": c.advice,
                    "required": c.required, "data": dict(c.data)} for c in diagnosis.checks],
        "summary": {"counts": counts, "failed": [c.id for c in diagnosis.failed]},
    }


def render_json(diagnosis: Diagnosis, out: TextIO) -> None:
    json.dump(as_json(diagnosis), out, indent=2, ensure_ascii=False, allow_nan=False)
    out.write("\n")


FORMATS: dict[str, Callable[[Diagnosis, TextIO], None]] = {
    "text": render_text,
    "json": render_json,
}
