"""examples/REPORT.md is what tools/example_report.py writes today."""
from __future__ import annotations

from tools import example_report


def test_sample_report_is_current():
    assert example_report.TARGET.is_file(), "run: python -m tools.example_report"
    current = example_report.TARGET.read_text(encoding="utf-8")
    assert current == example_report.generate(), \
        "examples/REPORT.md is out of date: run python -m tools.example_report"
