"""The report model over hand-made results: findings of any code are grouped
generically, totals and rates follow the documented formulas."""
from __future__ import annotations

import pytest

from hipport.codes import CODES
from hipport.edits import Edit, Fix
from hipport.findings import Finding, LocatedFinding
from hipport.jobs import FileResult, Outcome
from hipport.report.effort import EffortModel
from hipport.report.model import Tally, build_report, directory_of
from hipport.score import FileStats
from hipport.source import Location
from hipport.table import load_table


def found(code: str, line: int, applied: bool = False, fix: bool = False,
          cuda: str | None = None, library: str | None = None) -> LocatedFinding:
    f = Finding(code, f"{code} message", 0, 1,
                fix=Fix((Edit(0, 1, b"x"),), title="t") if fix else None,
                cuda_name=cuda, library=library)
    return LocatedFinding(f, Location(line, 1), Location(line, 2), applied)


def result(path: str, *findings: LocatedFinding, lines: int = 10, changed: int = 0,
           outcome: Outcome = Outcome.CONVERTED) -> FileResult:
    stats = FileStats.of(lines, lines * 10, changed, list(findings))
    return FileResult(path, outcome, tuple(findings), stats)


def build(*results: FileResult):
    return build_report(results, load_table(), EffortModel())


def test_findings_are_grouped_by_code_whatever_the_code():
    report = build(
        result("a/x.cu", found("HP401", 3), found("HP401", 3), found("HP401", 9, applied=True,
                                                                      fix=True)),
        result("b/y.cu", found("HP401", 1), found("HP650", 2), found("HP001", 1)),
    )
    groups = {g.code: g for g in report.findings}
    assert set(groups) == {"HP001", "HP401", "HP650"}
    g = groups["HP401"]
    assert (g.count, g.fixed, g.open, g.files) == (4, 1, 3, 2)
    # One per file:line, the open ones (where the work is): a/x.cu:9 is fixed.
    assert g.locations == ("a/x.cu:3", "b/y.cu:1")
    assert (g.name, g.severity) == (CODES["HP401"].name, CODES["HP401"].severity.value)
    assert g.days == pytest.approx(3 * EffortModel().finding_weight("HP401"))
    assert report.totals.open_findings == 3 + 1 + 1


def test_a_code_unknown_to_the_catalogue_of_codes_is_still_shown():
    report = build(result("x.cu", found("HP799", 4)))
    [g] = report.findings
    assert (g.code, g.name, g.severity, g.count) == ("HP799", "hp799", "warning", 1)


def test_reference_findings_are_not_hazards():
    report = build(result("x.cu", found("HP101", 1, applied=True, fix=True, cuda="cudaFree",
                                        library="runtime"),
                          found("HP901", 2, cuda="cudaInitDevice", library="runtime"),
                          lines=4, changed=1))
    assert report.findings == ()
    assert (report.totals.refs_converted, report.totals.refs_unconverted) == (1, 1)
    assert [r.cuda_name for r in report.ledger] == ["cudaInitDevice"]
    assert report.totals.reuse_rate == pytest.approx(0.75)


def test_rates_of_an_empty_tally_are_one():
    assert Tally().conversion_rate == 1.0 and Tally().reuse_rate == 1.0


def test_files_without_lines_or_findings_are_left_out():
    report = build(result("a.cu"), result("empty.cu", lines=0))
    assert [f.path for f in report.files] == ["a.cu"]


def test_outcomes_are_counted():
    report = build(result("a.cu"), result("b.cu", outcome=Outcome.UNCHANGED),
                   result("c.cu", found("HP002", 1), outcome=Outcome.FAILED))
    assert report.outcomes == {"converted": 1, "unchanged": 1, "failed": 1, "skipped": 0}


@pytest.mark.parametrize("path, directory", [
    ("a.cu", "."), ("src/a.cu", "src"), ("src/sub/a.cu", "src/sub"), ("k\\xff/a\\\\b.cu", "k\\xff"),
])
def test_directory_of(path, directory):
    assert directory_of(path) == directory
