"""Counted nouns in what hipport prints go through one helper
(hipport/words.py): issue 24 found "reuse -33.3% of 3 lines" next to
"1 source files", and "1 entries", "of 1 lines", "(1 APIs)", "x 1 uses"
in other summaries."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.score import FileStats, RunStats
from hipport.words import plural


@pytest.mark.parametrize("count, noun, shown", [
    (1, "file", "1 file"), (0, "file", "0 files"), (2, "line", "2 lines"),
    (1, "entry", "1 entry"), (3, "entry", "3 entries"), (2, "more fix", "2 more fixes"),
    (4, "API", "4 APIs"), (2, "day", "2 days"), (2, "open finding", "2 open findings"),
    (2, "policy", "2 policies"), (2, "CUDA reference", "2 CUDA references"),
])
def test_plural(count, noun, shown):
    assert plural(count, noun) == shown


def test_plural_with_an_irregular_form():
    assert (plural(1, "child", "children"), plural(2, "child", "children")) == \
        ("1 child", "2 children")


def test_the_summary_line_of_one_line():
    stats = RunStats(files_converted=1)
    stats.add(FileStats(lines=1, changed_lines=1, refs_converted=1, edited_lines=1))
    assert stats.summary() == ("1 file converted, 0 unchanged, 0 failed · 1 ref converted, "
                               "0 unconverted (conversion 100.0%, reuse 0.0% of 1 line)")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_report_of_one_file_one_line_one_reference(tmp_path: Path):
    (tmp_path / "a.cu").write_text("void f() { cudaNoSuchThing(); }\n")
    text = run("report", str(tmp_path), "--format", "text").stdout
    flat = " ".join(text.split())
    assert "1 file, 1 line: 0 of 1 CUDA reference convert automatically" in flat
    assert "1 API in the ledger" in flat
    assert "Unmapped-API ledger (1 API)" in text
    assert "x 1 use " in text
    html = run("report", str(tmp_path), "--format", "html").stdout
    assert "unmapped, 1 use," in html and "1 unconverted reference<" in html
    assert "conversion rate (0 of 1 reference)" in html
    assert "reuse rate (1 of 1 line unchanged)" in html
    (tmp_path / "a.cu").write_text("void f(void *p) { cudaFree(p); }\n")
    flat = " ".join(run("report", str(tmp_path), "--format", "text").stdout.split())
    assert "1 of 1 CUDA reference converts automatically" in flat
    (tmp_path / "a.cu").write_text("void f(void *p) { cudaFree(p); cudaNoSuchThing(); }\n")
    flat = " ".join(run("report", str(tmp_path), "--format", "text").stdout.split())
    assert "applies the 1 automatic conversion." in flat


def test_mapping_counts(tmp_path: Path):
    rules = tmp_path / "one.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - {cuda: cudaFoo, hip: hipFoo, kind: function}\n")
    assert run("mappings", "validate", str(rules)).stdout == f"{rules}: 1 entry, valid\n"
