"""File names that are not plain text (invalid UTF-8, control characters,
backslashes) are shown escaped in every output, never crash a writer, and
round-trip to their exact bytes (docs/safety.md, "Names, outputs and
configuration")."""
from __future__ import annotations

import csv
import io
import json
import os
import unicodedata
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from hipport.cli import cli
from hipport.filenames import shown, unescape
from tests.report.helpers import validate_report_json, validate_sarif

CUDA = b"void f(float* p) { cudaFree(p); cudaFooBar(p); }\n"
# Not UTF-8, a space, a tab, a newline, a backslash: each needs care somewhere.
ODD_NAMES = [b"k\xff e.cu", b"tab\there.cu", b"nl\nhere.cu", b"back\\slash.cu"]


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def odd_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name in ODD_NAMES:
        (src / os.fsdecode(name)).write_bytes(CUDA)
    monkeypatch.chdir(tmp_path)
    return src


@settings(derandomize=True, max_examples=300)
@given(st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b))
def test_shown_round_trips_to_the_exact_bytes(raw: bytes):
    text = shown(os.fsdecode(raw))
    text.encode("utf-8")  # strict: no lone surrogates left
    # no newline, tab, terminal escape or other control character
    assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in text)
    assert unescape(text) == raw


@pytest.mark.parametrize("name, expected", [
    ("plain.cu", "plain.cu"), ("my kernel.cu", "my kernel.cu"), ("café.cu", "café.cu"),
    (os.fsdecode(b"k\xff.cu"), "k\\xff.cu"), ("a\tb\n.cu", "a\\x09b\\x0a.cu"),
    ("a\\b.cu", "a\\\\b.cu"), ("a\\xff.cu", "a\\\\xff.cu"), ("\x1b[31m.cu", "\\x1b[31m.cu"),
])
def test_escaping_scheme(name: str, expected: str):
    assert shown(name) == expected


@pytest.mark.parametrize("fmt", ["text", "json", "md", "html", "csv", "sarif"])
def test_report_writes_every_format_with_odd_names(odd_tree: Path, fmt: str):
    out = odd_tree.parent / f"report.{fmt}"
    result = run("report", "src", "--format", fmt, "-o", str(out), "-j", "1", "--no-cache")
    assert result.exit_code == 0, result.output
    text = out.read_bytes().decode("utf-8")  # strict UTF-8
    if fmt in ("text", "md", "html", "csv"):
        assert "k\\xff e.cu" in text
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        assert all("\n" not in cell for row in rows for cell in row)
    if fmt == "json":
        data = validate_report_json(text)
        files = {bytes.fromhex(f["path_hex"]) if "path_hex" in f else f["path"].encode(): f
                 for f in data["files"]}
        assert set(files) == set(ODD_NAMES)  # relative to the folder scanned
        for raw, entry in files.items():
            entry["path"].encode("utf-8")  # no lone surrogates
            assert unescape(entry["path"]) == raw
    if fmt == "sarif":
        data = validate_sarif(text)
        uris = {unquote_to_bytes(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
                for r in data["runs"][0]["results"]}
        assert uris == set(ODD_NAMES)


def test_report_to_stdout_with_odd_names(odd_tree: Path):
    result = run("report", "src", "--format", "md", "-j", "1", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "nl\\x0ahere.cu" in result.stdout


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_check_output_with_odd_names(odd_tree: Path, fmt: str):
    result = run("check", "src", "--output-format", fmt, "--no-baseline")
    assert result.exit_code == 1, result.output
    if fmt == "text":
        lines = result.stdout.splitlines()
        assert len(lines) == len(ODD_NAMES)  # one line per file: no name breaks a line
        assert "src/k\\xff e.cu:1:33: HP900" in result.stdout
        assert "src/tab\\x09here.cu:1:33: HP900" in result.stdout
    if fmt == "json":
        data = json.loads(result.stdout)
        raws = {bytes.fromhex(v["path_hex"]) if "path_hex" in v else v["path"].encode()
                for v in data["violations"]}
        assert raws == {b"src/" + n for n in ODD_NAMES}
    if fmt == "sarif":
        validate_sarif(result.stdout)
    if fmt == "github":
        assert len(result.stdout.splitlines()) == len(ODD_NAMES)


def test_convert_messages_and_baseline_with_odd_names(odd_tree: Path):
    result = run("convert", "src", "-j", "1", "--no-cache")
    assert result.exit_code == 0, result.output
    assert "src/k\\xff e.cu:1:33: HP900" in result.stderr
    assert "src/nl\\x0ahere.cu:1:33: HP900" in result.stderr
    baseline = odd_tree.parent / "base.json"
    written = run("check", "src", "--write-baseline", "--baseline", str(baseline))
    assert written.exit_code == 0, written.output
    keys = {e["path"] for e in json.loads(baseline.read_text(encoding="utf-8"))["findings"]}
    assert {unescape(k) for k in keys} == {b"src/" + n for n in ODD_NAMES}
    again = run("check", "src", "--baseline", str(baseline))
    assert again.exit_code == 0, again.output  # the escaped keys match the files again


def test_diff_keeps_the_file_bytes_whatever_the_output_encoding(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch):
    source = b"// caf\xe9 (Latin-1)\nvoid f() { cudaDeviceSynchronize(); }\n"
    (tmp_path / "a.cu").write_bytes(source)
    monkeypatch.chdir(tmp_path)
    result = run("convert", "a.cu", "--diff", "-j", "1", "--no-cache")  # stdout: strict UTF-8
    assert result.exit_code == 0, result.output
    assert b" // caf\xe9 (Latin-1)\n" in result.stdout_bytes
    assert b"+void f() { hipDeviceSynchronize(); }\n" in result.stdout_bytes
