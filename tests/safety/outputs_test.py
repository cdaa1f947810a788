"""Reports and baselines: written atomically, never over code, never over a
baseline hipport cannot read, with the user's umask (docs/safety.md, "Names,
outputs and configuration")."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.writing import TEMP_SUFFIX
from tests.conftest import REPO

CUDA = b"void f(float* p) { cudaFree(p); cudaOccupancyMaxActiveClusters(0, 0, 0); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(CUDA)
    (src / "b.cu").write_bytes(CUDA.replace(b"f(", b"g("))
    (src / "CMakeLists.txt").write_bytes(b"project(p LANGUAGES CXX CUDA)\n")
    monkeypatch.chdir(tmp_path)
    return src


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


# -- a full disk in the middle of a write (item 7) ---------------------------

def _limited(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write(), not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def _hipport_with_full_disk(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``hipport ARGS`` where no file may grow past 2 KB: the disk "fills up"
    part way through writing anything bigger."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONDONTWRITEBYTECODE": "1"}
    warm = subprocess.run([sys.executable, "-m", "hipport", "mappings", "stats"], cwd=cwd,
                          env=env, capture_output=True, text=True)  # the catalogue cache
    assert warm.returncode == 0, warm.stderr
    return subprocess.run([sys.executable, "-m", "hipport", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, preexec_fn=_limited(2048),
                          timeout=300)


def test_report_survives_a_full_disk(tree: Path):
    report = tree.parent / "report.json"
    old = b'{"an": "old report the user keeps"}\n' * 3
    report.write_bytes(old)
    proc = _hipport_with_full_disk(tree.parent, "report", "src", "--format", "json", "-o",
                                   str(report), "-j", "1", "--no-cache")
    assert proc.returncode == 2, proc.stderr
    assert "cannot write the report to" in proc.stderr and "File too large" in proc.stderr
    assert "internal error" not in proc.stderr
    assert report.read_bytes() == old  # before: truncated to 2 KB of the new report
    assert not [p for p in tree.parent.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_baseline_survives_a_full_disk(tree: Path):
    baseline = tree.parent / "known.json"
    assert run("check", "src/a.cu", "--write-baseline", "--baseline", str(baseline)).exit_code == 0
    old = baseline.read_bytes()
    for i in range(60):  # enough new violations for a baseline past 2 KB
        (tree / f"n{i}.cu").write_bytes(CUDA.replace(b"f(", f"f{i}(".encode()))
    proc = _hipport_with_full_disk(tree.parent, "check", "src", "--write-baseline",
                                   "--baseline", str(baseline))
    assert proc.returncode == 2, proc.stderr
    assert "cannot write the baseline" in proc.stderr
    assert baseline.read_bytes() == old
    assert not [p for p in tree.parent.iterdir() if p.name.endswith(TEMP_SUFFIX)]


# -- outputs that are inputs (item 8) ----------------------------------------

@pytest.mark.parametrize("args, message", [
    (("report", "src", "-o", "src/a.cu"), "inside the input folder src, a file of that name"),
    (("report", "src/a.cu", "-o", "src/a.cu"), "it is an input of this run"),
    (("report", "src", "-o", "src/CMakeLists.txt"), "inside the input folder src"),
    (("report", "src", "-o", "src/new.cuh"), "inside the input folder src"),
    (("report", "src/a.cu", "-o", "src/b.cu"), "it would replace a source or build file"),
    (("report", "src", "--include", "*.txt", "-o", "src/notes.txt"), "inside the input folder"),
    (("check", "src", "--write-baseline", "--baseline", "src/b.cu"), "inside the input folder"),
    (("check", "src", "--write-baseline", "--baseline", "src/CMakeLists.txt"),
     "inside the input folder"),
    (("check", "src/a.cu", "--write-baseline", "--baseline", "src/a.cu"), "an input of this run"),
    (("check", "src/a.cu", "--write-baseline", "--baseline", "src/b.cu"),
     "it would replace a source or build file"),
])
def test_outputs_that_are_inputs_are_refused(tree: Path, args, message):
    before = snapshot(tree.parent)
    result = run(*args, "-j", "1")
    assert result.exit_code == 2, result.output
    assert "refusing to write the" in result.stderr and message in result.stderr
    assert snapshot(tree.parent) == before  # nothing written


def test_output_through_links_to_an_input_is_refused(tree: Path):
    (tree.parent / "hard.md").hardlink_to(tree / "a.cu")
    (tree.parent / "soft.md").symlink_to(tree / "b.cu")
    before = snapshot(tree.parent)
    hard = run("report", "src", "-o", "hard.md", "-j", "1")
    assert hard.exit_code == 2 and "it is a hard link to src/a.cu" in hard.stderr
    soft = run("report", "src", "-o", "soft.md", "-j", "1")  # a symlink is followed
    assert soft.exit_code == 2 and "inside the input folder src" in soft.stderr
    linked = run("check", "src", "--write-baseline", "--baseline", "hard.md")
    assert linked.exit_code == 2  # (read first: C++ is a malformed baseline)
    assert snapshot(tree.parent) == before


def test_ordinary_outputs_are_written(tree: Path):
    assert run("report", "src", "-o", "src/REPORT.md", "-j", "1").exit_code == 0
    reports = tree.parent / "reports"
    reports.mkdir()
    (reports / "latest.html").write_text("old")
    (tree.parent / "link.html").symlink_to(reports / "latest.html")
    assert run("report", "src", "-f", "html", "-o", "link.html", "-j", "1").exit_code == 0
    assert (tree.parent / "link.html").is_symlink()  # the link kept, its target replaced
    assert (reports / "latest.html").read_text().startswith("<!DOCTYPE html>")
    result = run("check", "src", "--write-baseline", "-j", "1")
    assert result.exit_code == 0, result.output


# -- a baseline hipport cannot read is not rewritten (item 9) ----------------

def test_write_baseline_refuses_a_conflicted_baseline(tree: Path):
    baseline = tree.parent / ".hipport-baseline.json"
    assert run("check", "src", "--write-baseline").exit_code == 0
    entries = json.loads(baseline.read_text())["findings"]
    assert {e["path"] for e in entries} == {"src/a.cu", "src/b.cu"}
    text = baseline.read_text()
    conflicted = text.replace('"findings": [', '"findings": [\n<<<<<<< HEAD\n=======\n'
                              '>>>>>>> topic', 1)
    baseline.write_text(conflicted)
    result = run("check", "src/a.cu", "--write-baseline")
    assert result.exit_code == 2, result.output
    assert "unresolved git merge conflict markers" in result.stderr
    assert "resolve the conflict" in result.stderr and "delete the file" in result.stderr
    assert baseline.read_text() == conflicted  # before: rewritten, src/b.cu's entries gone
    plain = run("check", "src/a.cu")
    assert plain.exit_code == 2 and "conflict markers" in plain.stderr


@pytest.mark.parametrize("content, message", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"version": 1, "findings": [{"path": "src/a.cu"', "malformed baseline JSON"),
    ("[]", "not a hipport baseline"),
])
def test_unreadable_baselines_are_clear_errors(tree: Path, content: str, message: str):
    baseline = tree.parent / ".hipport-baseline.json"
    baseline.write_text(content)
    for args in (("src",), ("src", "--write-baseline")):
        result = run("check", *args)
        assert result.exit_code == 2, result.output
        assert message in result.stderr and "internal error" not in result.stderr
        assert "delete the file" in result.stderr
    assert baseline.read_text() == content


# -- new files get the user's umask ------------------------------------------

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_baselines_and_reports_follow_the_umask(tree: Path, umask: int, mode: int):
    previous = os.umask(umask)
    try:
        assert run("check", "src", "--write-baseline").exit_code == 0
        assert run("report", "src", "-o", "r.md", "-j", "1").exit_code == 0
    finally:
        os.umask(previous)
    assert (tree.parent / ".hipport-baseline.json").stat().st_mode & 0o777 == mode
    assert (tree.parent / "r.md").stat().st_mode & 0o777 == mode


def test_a_rewritten_baseline_keeps_its_mode(tree: Path):
    baseline = tree.parent / ".hipport-baseline.json"
    assert run("check", "src", "--write-baseline").exit_code == 0
    baseline.chmod(0o640)
    assert run("check", "src", "--write-baseline").exit_code == 0
    assert baseline.stat().st_mode & 0o777 == 0o640
