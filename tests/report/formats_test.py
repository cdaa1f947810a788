"""Every format renders the same report; JSON and SARIF validate against their
schemas (ours, and the official SARIF 2.1.0 one)."""
from __future__ import annotations

import re

import pytest

from hipport.report import FORMATS
from tests.conftest import REPO
from tests.report.helpers import FIXTURES, rendered, report_of, validate_report_json, validate_sarif


@pytest.fixture(scope="module")
def report():
    import os
    cwd = os.getcwd()
    os.chdir(FIXTURES / "legacy")
    config = FIXTURES / "pinned-weights.toml"
    try:
        return report_of(".", rocm_version="5.7", config=config)
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def examples_report():
    import os
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return report_of("examples")
    finally:
        os.chdir(cwd)


def test_registry_lists_the_formats():
    assert set(FORMATS) == {"text", "json", "md", "html", "csv", "sarif"}


@pytest.mark.parametrize("which", ["report", "examples_report"])
def test_json_validates(which, request):
    report = request.getfixturevalue(which)
    data = validate_report_json(rendered(report, "json"))
    assert data["totals"]["refs"] == report.totals.refs
    assert len(data["files"]) == len(report.files)


def test_json_schema_rejects_what_it_should(report):
    import json

    import jsonschema

    from tests.report.helpers import REPORT_SCHEMA
    data = validate_report_json(rendered(report, "json"))
    schema = json.loads(REPORT_SCHEMA.read_text())
    for broken in ({**data, "schema": "hipport-report/1"}, {**data, "extra": 1},
                   {**data, "ledger": [{**data["ledger"][0], "status": "bogus"}]},
                   {**data, "totals": {**data["totals"], "conversion_rate": 1.5}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft202012Validator(schema).validate(broken)


@pytest.mark.parametrize("which", ["report", "examples_report"])
def test_sarif_validates_against_the_official_schema(which, request):
    report = request.getfixturevalue(which)
    data = validate_sarif(rendered(report, "sarif"))
    run = data["runs"][0]
    findings = [f for file in report.files for f in file.findings]
    assert len(run["results"]) == len(findings)
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rules == sorted({f.code for f in findings})
    for rule in run["tool"]["driver"]["rules"]:
        assert rule["shortDescription"]["text"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")


def test_sarif_results_have_locations_and_fixes(report):
    data = validate_sarif(rendered(report, "sarif"))
    results = data["runs"][0]["results"]
    unsupported = [r for r in results if r["ruleId"] == "HP901"]
    assert len(unsupported) == 3 and all("fixes" not in r for r in unsupported)
    first = unsupported[0]["locations"][0]["physicalLocation"]
    assert first["artifactLocation"] == {"uri": "blas/gemm.cu", "uriBaseId": "%SRCROOT%"}
    assert first["region"]["startLine"] == 8
    create = next(r for r in results if r.get("properties", {}).get("cudaName") == "cublasCreate")
    [fix] = create["fixes"]
    [replacement] = fix["artifactChanges"][0]["replacements"]
    assert replacement["insertedContent"]["text"] == "hipblasCreate"
    assert replacement["deletedRegion"]["byteLength"] == len("cublasCreate")
    source = (FIXTURES / "legacy" / "blas" / "gemm.cu").read_bytes()
    offset = replacement["deletedRegion"]["byteOffset"]
    assert source[offset:offset + len("cublasCreate")] == b"cublasCreate"


def test_markdown_has_every_section(report):
    text = rendered(report, "md")
    for heading in ("## Summary", "## Unmapped-API ledger", "## Effort estimate",
                    "## Libraries", "## Portability hazards and other findings",
                    "## Directories", "## Files"):
        assert heading in text
    assert "| **Conversion rate** | **55.0 %** |" in text
    assert "| high | `cudaInitDevice` | runtime | unsupported (HP901) | 3 | 2 |" in text
    # every table row has the same number of cells as its header
    for table in re.findall(r"((?:^\|.*\|\n)+)", text, re.M):
        rows = [r for r in table.splitlines()]
        widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
        assert len(widths) == 1, table


def test_markdown_escapes_pipes_in_cells():
    from hipport.report.templating import _md
    assert _md("a|b\nc") == "a\\|b c"


def test_text_summary(report):
    text = rendered(report, "text")
    assert "Unmapped-API ledger (8 APIs)" in text
    assert "cudaInitDevice" in text and "55.0 %" in text
    assert "\x1b[" not in text  # no colour codes when not a terminal


def test_html_is_self_contained(examples_report):
    page = rendered(examples_report, "html")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "default-src 'none'" in page
    for chart in ("chart-libraries", "chart-ledger", "chart-directories"):
        assert f'<svg id="{chart}"' in page
    assert page.count('class="ledger-row"') == len(examples_report.ledger)


def test_html_escapes_names(report):
    page = rendered(report, "html")
    assert "<code>__CUDA_ARCH__</code>" in page
    assert "<script>" in page and page.count("<script>") == 1


def test_names_are_escaped_in_html_and_markdown():
    from tests.report.model_test import build, found, result
    report = build(result("a<b>/x|y.cu", found("HP900", 3, cuda="cuda<script>|x")))
    page = rendered(report, "html")
    assert "cuda<script>" not in page and "cuda&lt;script&gt;|x" in page
    md = rendered(report, "md")
    assert "`cuda<script>\\|x`" in md and "a<b>/x\\|y.cu:3" in md
    validate_sarif(rendered(report, "sarif"))
    validate_report_json(rendered(report, "json"))


def test_progress_bar_does_not_change_the_report(monkeypatch):
    from hipport.report.run import ReportRequest, make_report
    monkeypatch.chdir(FIXTURES / "legacy")
    request = ReportRequest((FIXTURES / "legacy",), jobs=1)
    assert rendered(make_report(request, progress=True), "json") == \
        rendered(make_report(request), "json")
