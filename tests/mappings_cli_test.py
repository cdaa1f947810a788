from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.table import bundled_table
from hipport.table.docs import library_pages
from tests.conftest import REPO


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_show_known_and_unknown():
    result = run("mappings", "show", "cudaMemcpyToSymbol", "cudaNoSuchThing")
    assert result.exit_code == 1
    assert "cudaMemcpyToSymbol -> hipMemcpyToSymbol" in result.stdout
    assert "rule: wrap-symbol-argument" in result.stdout
    assert "cudaNoSuchThing: not in the catalogue" in result.stderr


def test_list_filters_by_library_and_status():
    result = run("mappings", "list", "--library", "cufft", "--status", "supported")
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert rows and all(r[3] == "cufft" and r[4] == "supported" for r in rows)
    assert ["cufftPlan1d", "hipfftPlan1d", "function", "cufft", "supported"] in rows


def test_stats_prints_full_coverage_and_totals():
    result = run("mappings", "stats")
    assert result.exit_code == 0
    total = [line for line in result.stdout.splitlines() if line.startswith("total:")][0]
    table = bundled_table()
    assert f"total: {len(table)} entries" in total
    cublas = [line for line in result.stdout.splitlines() if line.startswith("cublas ")][0]
    assert "100.0%" in cublas


def test_validate_reports_file_line_and_key(tmp_path: Path):
    good = tmp_path / "good.yaml"
    good.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                    "  - {cuda: cudaFoo, hip: hipFoo, kind: function}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                   "  - cuda: cudaFoo\n    kind: function\n    status: sometimes\n")
    dup = tmp_path / "dup.yaml"
    dup.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                   "  - {cuda: cudaFoo, hip: hipFoo, kind: function}\n"
                   "  - {cuda: cudaFoo, hip: hipBar, kind: function}\n")
    result = run("mappings", "validate", str(good), str(bad), str(dup))
    assert result.exit_code == 1
    assert f"{good}: 1 entry, valid" in result.stdout
    assert f"{bad}:6: entries[0].status: expected one of" in result.stderr
    assert f"{dup}:5: duplicate CUDA name 'cudaFoo'" in result.stderr


def test_bundled_catalogue_validates():
    files = sorted((REPO / "mappings").rglob("*.yaml"))
    result = run("mappings", "validate", *map(str, files))
    assert result.exit_code == 0, result.stderr


def test_checked_in_docs_are_current():
    docs = REPO / "docs" / "mappings"
    for name, text in library_pages(bundled_table()).items():
        assert (docs / name).read_text(encoding="utf-8") == text, \
            f"docs/mappings/{name} is stale: run `hipport mappings docs`"


def test_identity_rule_disables_a_mapping(tmp_path: Path):
    rules = tmp_path / "keep.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - {cuda: cudaMalloc, hip: cudaMalloc, kind: function, "
                     "note: our own shim provides it}\n")
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f() { cudaMalloc(&p, 4); cudaFree(p); }\n")
    result = run("convert", str(f), "--in-place", "--rules", str(rules))
    assert result.exit_code == 0
    assert f.read_bytes() == (b"#include <hip/hip_runtime.h>\n"
                              b"void f() { cudaMalloc(&p, 4); hipFree(p); }\n")
    assert "HP9" not in result.stderr


@pytest.mark.parametrize("make, words", [
    (lambda p: None, ": cannot read mapping file: no such file or directory"),
    (lambda p: p.mkdir(), ": cannot read mapping file: is a directory"),
    (lambda p: p.write_bytes(b"schema: hipport-mappings/1\n# caf\xe9\n"),
     ":2: the mapping file is not UTF-8 (byte 0xe9); save it as UTF-8"),
], ids=["missing", "a folder", "latin-1"])
def test_validate_names_a_file_it_cannot_read(tmp_path: Path, make, words):
    # Before: Python's own words and no file name ("'utf-8' codec can't
    # decode byte 0xe9 in position 31: invalid continuation byte"), exit 1.
    path = tmp_path / "rules.yaml"
    make(path)
    good = tmp_path / "good.yaml"
    good.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                    "  - {cuda: cudaFoo, hip: hipFoo, kind: function}\n")
    result = run("mappings", "validate", str(path), str(good))
    assert result.exit_code == 2
    assert result.stderr == f"hipport: error: {path}{words}\n"
    assert result.stdout.startswith(f"{good}: 1 ") and result.stdout.endswith(", valid\n")
    rules = run("mappings", "list", "--rules", str(path))
    assert rules.exit_code == 2
    assert rules.stderr == result.stderr.replace("mapping file", "rules file")
