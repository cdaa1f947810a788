"""Configuration mistakes: one message naming the file, line and key; exit 2;
nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
HEAD = "schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"


def run(*args: str):
    return CliRunner().invoke(cli, [*args, "-j", "1"], catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(CUDA)
    return src


RULES = [
    ("malformed YAML", HEAD + "  - cuda: cudaFoo\n    hip: [hipFoo\n", 6, "malformed YAML"),
    ("unknown key", HEAD + "  - cuda: cudaFoo\n    hip: hipFoo\n    kind: function\n"
     "    colour: red\n", 7, "entries[0].colour: unknown key"),
    ("wrong type (number)", HEAD + "  - cuda: cudaFoo\n    hip: 3\n    kind: function\n", 5,
     "entries[0].hip: expected a name"),
    ("wrong type (list)", HEAD + "  - cuda: [cudaFoo]\n    kind: function\n", 4,
     "entries[0].cuda: expected a non-empty string"),
    ("bad choice", HEAD + "  - cuda: cudaFoo\n    hip: hipFoo\n    kind: functon\n", 6,
     "entries[0].kind: expected one of"),
    ("duplicate entry", HEAD + "  - cuda: cudaFoo\n    hip: hipFoo\n    kind: function\n"
     "  - cuda: cudaFoo\n    hip: hipBar\n    kind: function\n", 7,
     "duplicate CUDA name 'cudaFoo'"),
    ("duplicate key", HEAD + "  - cuda: cudaFoo\n    cuda: cudaBar\n    kind: function\n", 5,
     "duplicate key"),
    ("missing key", "entries: []\n", 1, "missing required key 'schema'"),
]


@pytest.mark.parametrize("name, text, line, words", RULES, ids=[r[0] for r in RULES])
def test_bad_rules_file(tree: Path, tmp_path: Path, name, text, line, words):
    rules = tmp_path / "rules.yaml"
    rules.write_text(text)
    result = run("convert", str(tree), "--in-place", "--rules", str(rules))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"hipport: error: {rules}:{line}: "), result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1  # one message
    assert (tree / "a.cu").read_bytes() == CUDA  # nothing written


@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe\x00", "the rules file is not UTF-8 (byte 0xff); save it as UTF-8"),
    (None, "cannot read rules file"),
])
def test_unreadable_rules_file(tree: Path, tmp_path: Path, content, words):
    rules = tmp_path / "rules.yaml"
    if content is not None:
        rules.write_bytes(content)
    result = run("convert", str(tree), "--in-place", "--rules", str(rules))
    assert result.exit_code == 2 and words in result.stderr and str(rules) in result.stderr
    assert (tree / "a.cu").read_bytes() == CUDA


@pytest.mark.parametrize("text, key", [
    ("[tool.hipport]\ncolour = 1\n", "tool.hipport.colour"),
    ("[tool.hipport.report]\neffort = 3\n", "tool.hipport.report.effort"),
    ("[tool.hipport.report.effort]\nhigh-priority = \"lots\"\n",
     "tool.hipport.report.effort.high-priority"),
    ("[tool.hipport\n", "(file)"),
])
def test_bad_project_configuration(tree: Path, tmp_path: Path, text, key):
    (tree / "pyproject.toml").write_text(text)
    out = tmp_path / "report.json"
    result = run("report", str(tree), "-f", "json", "-o", str(out), "-q")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"hipport: error: {tree / 'pyproject.toml'}: {key}: ")
    assert not out.exists()
