"""Code documentation: every hazard is explained, `hipport explain` prints
the explanation, and docs/codes/ is what tools/gen_code_docs.py writes."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.diagnostics.hazards import HAZARDS_CODES
from hipport.rules import file_rules
from tools import gen_code_docs

DOCS = Path(__file__).resolve().parent.parent.parent / "docs" / "codes"


@pytest.mark.parametrize("code", HAZARDS_CODES, ids=lambda c: c.code)
def test_hazard_code_is_documented(code):
    assert 400 <= int(code.code[2:]) < 600
    assert code.name == code.name.lower() and " " not in code.name
    for section in ("## Why", "## What to do", "Before:", "After:"):
        assert section in code.explanation


@pytest.mark.parametrize("code", HAZARDS_CODES, ids=lambda c: c.code)
def test_explain_prints_the_explanation(code):
    result = CliRunner().invoke(cli, ["explain", code.code])
    assert result.exit_code == 0
    assert code.summary in result.output
    assert "## What to do" in result.output


def test_hazard_rules_are_registered():
    assert sum(name.startswith("hazard-") for name in file_rules()) >= 13


def test_checked_in_code_pages_are_current():
    wanted = gen_code_docs.pages()
    present = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    stale = sorted(n for n in set(wanted) | set(present) if wanted.get(n) != present.get(n))
    assert stale == [], "run: python -m tools.gen_code_docs"
