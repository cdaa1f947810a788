"""`hipport report` end to end: exit codes, files written (only the report),
and the import-time cost of the command."""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.report.effort import DEFAULT_PER_OCCURRENCE
from tests.conftest import REPO
from tests.report.helpers import FIXTURES, validate_report_json, validate_sarif

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); cudaInitDevice(0, 0, 0); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.cu").write_bytes(CUDA)
    (src / "sub" / "b.cuh").write_bytes(b"#pragma once\nint plain(int x);\n")
    return src


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_terminal_summary_writes_nothing(tree):
    before = snapshot(tree.parent)
    result = run("report", str(tree), "-j", "1")
    assert result.exit_code == 0, result.output
    assert "cudaInitDevice" in result.output and "50.0 %" in result.output
    assert snapshot(tree.parent) == before


@pytest.mark.parametrize("fmt, suffix", [("json", "json"), ("md", "md"), ("markdown", "md"),
                                         ("html", "html"), ("csv", "csv"),
                                         ("sarif", "sarif")])
def test_each_format_to_a_file(tree, tmp_path, fmt, suffix):
    out = tmp_path / "out" / f"report.{suffix}"
    before = snapshot(tree)
    result = run("report", str(tree), "--format", fmt, "-o", str(out), "-j", "1")
    assert result.exit_code == 0, result.output
    assert snapshot(tree) == before
    text = out.read_text()
    assert "cudaInitDevice" in text
    if fmt == "json":
        assert validate_report_json(text)["totals"]["refs"] == 3
    if fmt == "sarif":
        validate_sarif(text)
    assert f"wrote {out}" in result.output  # the summary line goes to stderr


def test_quiet_prints_nothing_but_the_report(tree):
    result = CliRunner().invoke(cli, ["report", str(tree), "-f", "json", "-q", "-j", "1"])
    assert result.exit_code == 0
    assert result.stderr == ""
    assert json.loads(result.stdout)["schema"] == "hipport-report/2"


def test_config_in_the_input_tree_is_used(tree):
    (tree / ".hipport.toml").write_text("[report.effort]\ncontingency = 0\n"
                                        "[report.effort.per-api]\nunsupported = 10\n")
    result = run("report", str(tree), "-f", "json", "-q", "-j", "1")
    data = json.loads(result.output)
    assert data["effort"]["contingency"] == 0
    assert data["ledger"][0]["days"] == pytest.approx(10 + DEFAULT_PER_OCCURRENCE["unsupported"])


@pytest.mark.parametrize("args, message", [
    (["--config", "{tmp}/missing.toml"], "no such configuration file"),
    (["--config", "{tmp}/bad.toml"], "report.effort.contingency: expected a number"),
    (["--rocm-version", "5.7", "--rules", "{tmp}/missing.yaml"], "cannot read rules file"),
])
def test_usage_errors_exit_2(tree, tmp_path, args, message):
    (tmp_path / "bad.toml").write_text("[report.effort]\ncontingency = 'x'\n")
    args = [a.format(tmp=tmp_path) for a in args]
    result = run("report", str(tree), *args)
    assert result.exit_code == 2
    assert message in result.output


def test_missing_input_exits_2(tmp_path):
    result = run("report", str(tmp_path / "nope"))
    assert result.exit_code == 2 and "no such file" in result.output


def test_unknown_format_exits_2(tree):
    assert run("report", str(tree), "-f", "pdf").exit_code == 2


def test_unwritable_output_exits_2(tree, tmp_path):
    (tmp_path / "file").write_text("")
    result = run("report", str(tree), "-f", "md", "-o", str(tmp_path / "file" / "r.md"))
    assert result.exit_code == 2 and "cannot write the report" in result.output


def test_rich_and_jinja2_are_not_imported_with_hipport():
    code = ("import sys, hipport, hipport.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'jinja2'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    assert out.strip() == "[]"


def test_parallel_and_serial_runs_agree(tmp_path, monkeypatch):
    monkeypatch.chdir(FIXTURES / "legacy")
    one = run("report", ".", "-f", "json", "-q", "-j", "1").output
    two = run("report", ".", "-f", "json", "-q", "-j", "2").output
    assert one == two


# Issue 19, item 8: the format follows the output's extension (or a
# contradiction is refused); the text report says what to do first.

@pytest.mark.parametrize("name, starts", [("r.html", "<!DOCTYPE html>"), ("r.htm", "<!DOCTYPE"),
                                          ("r.md", "# CUDA to HIP"), ("r.json", "{"),
                                          ("r.sarif", "{"), ("r.txt", "CUDA to HIP")])
def test_the_output_extension_chooses_the_format(tree, tmp_path, name, starts):
    out = tmp_path / name
    result = run("report", str(tree), "-o", str(out), "-j", "1")
    assert result.exit_code == 0, result.output
    assert out.read_text().lstrip().startswith(starts)


def test_a_format_contradicting_the_extension_is_refused(tree, tmp_path):
    out = tmp_path / "r.html"
    result = run("report", str(tree), "-f", "md", "-o", str(out))
    assert result.exit_code == 2
    assert "names a html file but --format is md" in result.stderr
    assert not out.exists()
    same = run("report", str(tree), "-f", "html", "-o", str(out), "-j", "1")
    assert same.exit_code == 0 and out.read_text().startswith("<!DOCTYPE html>")
    other = tmp_path / "report.out"  # an extension that names no format: --format decides
    assert run("report", str(tree), "-f", "json", "-o", str(other), "-j", "1").exit_code == 0
    assert json.loads(other.read_text())["schema"] == "hipport-report/2"


def test_text_report_starts_with_next_steps(tree):
    """What unblocks the build first: an API with no HIP equivalent and a
    device-side launch (the build stops) come before a lane computed with 32
    (results change), whatever each costs; review comes last."""
    (tree / "k.cu").write_bytes(b"__global__ void child(int* p) { p[0] = 1; }\n"
                                b"__global__ void parent(int* p) { child<<<1, 1>>>(p);\n"
                                b"  int lane = threadIdx.x % 32; p[lane] = 0; }\n")
    (tree / ".hipport.toml").write_text("[report.effort.per-finding]\nHP401 = 5\n")
    lines = run("report", str(tree), "-j", "1").stdout.splitlines()
    start = lines.index("Next steps (what unblocks the build first):")
    assert start < lines.index(next(line for line in lines if line.startswith("Summary")))
    steps = lines[start + 1:lines.index(next(line for line in lines if line.startswith("  Then")))]
    assert steps[0].startswith("  1. HP502 device-side-launch (blocker (build)")
    assert "at k.cu:2" in steps[0] and "`hipport explain HP502`" in steps[0]
    assert steps[1].startswith("  2. cudaInitDevice: unsupported API (blocker (build)")
    assert "at a.cu:2" in steps[1] and "`hipport mappings show cudaInitDevice`" in steps[1]
    assert steps[2].startswith("  3. HP401 warp-size-literal (blocker (results)")
    assert "review and test the files" in steps[3]


def test_text_report_leaves_out_rows_with_nothing_open(tree):
    # HP306 (a runtime include added) is fixed by convert: nothing left open
    (tree / "k.cu").write_bytes(b"__global__ void k(int* p) { p[threadIdx.x % 32] = 1; }\n")
    text = run("report", str(tree), "-j", "1").stdout
    table = text.split("Portability hazards and other open findings", 1)[1].split("└")[0]
    assert "HP401" in table and "HP306" not in table
    assert "1 more finding of 1 code (HP306) is fixed by `hipport convert`" \
        in " ".join(text.split())
