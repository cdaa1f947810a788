"""Shared helpers for the report tests: build reports, validate outputs."""
from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema

from hipport.report import render
from hipport.report.run import ReportRequest, make_report
from tests.conftest import REPO

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"
REPORT_SCHEMA = REPO / "hipport" / "report" / "schema" / "report.schema.json"
SARIF_SCHEMA = HERE / "sarif-schema-2.1.0.json"

# Hazard weights set to zero, so effort figures depend only on the ledger and
# the conversion counts (hazard rules are another area's and may grow), and
# the other weights pinned, so the tests check the formulas, not the defaults
# (docs/effort.md fits those).
PINNED_WEIGHTS = (FIXTURES / "pinned-weights.toml").read_text()
NO_HAZARD_WEIGHTS = PINNED_WEIGHTS + """
[tool.hipport.report.effort.per-finding]
error = 0
warning = 0
info = 0
HP420 = 0
HP502 = 0
"""


def report_of(*paths: Path | str, config: Path | None = None, **options):
    request = ReportRequest(tuple(Path(p) for p in paths), config=config, jobs=1, **options)
    return make_report(request)


def rendered(report, fmt: str) -> str:
    out = io.StringIO()
    render(fmt, report, out)
    return out.getvalue()


def validate_report_json(text: str) -> dict:
    data = json.loads(text)
    schema = json.loads(REPORT_SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


def validate_sarif(text: str) -> dict:
    data = json.loads(text)
    schema = json.loads(SARIF_SCHEMA.read_text())
    jsonschema.Draft4Validator(schema).validate(data)
    return data
