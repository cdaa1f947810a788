"""`check --staged` and `--diff-base` see every changed file, whatever its
name: spaces, tabs, newlines, quotes, bytes that are not UTF-8 (real git
repositories; docs/safety.md, "Names, outputs and configuration")."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.check.gitdiff import changes_since, index_copies, staged_changes, unstaged_files
from hipport.cli import cli

NAMES = [b"my kernel.cu", b"tab\tkernel.cu", b"new\nline.cu", b'quote"d.cu', b"k\xff.cu",
         b"sub dir/a b.cu", b"trailing space .cu"]
VIOLATION = b"void f() { cudaOccupancyMaxActiveClusters(0, 0, 0); }\n"


def git(repo: Path, *args: str | bytes) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "test@example.com")
    git(root, "config", "user.name", "Test")
    git(root, "config", "core.quotePath", "true")  # the user's settings must not matter
    (root / "base.cu").write_bytes(b"int x;\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "init")
    monkeypatch.chdir(root)
    return root


def add_files(root: Path, data: bytes = VIOLATION) -> list[Path]:
    paths = []
    for raw in NAMES:
        path = root / os.fsdecode(raw)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"int y;\n" + data)
        paths.append(path)
    return paths


def test_staged_changes_see_every_name(repo: Path):
    paths = add_files(repo)
    git(repo, "add", "-A")
    assert staged_changes(repo).added == {p: frozenset({1, 2}) for p in paths}


def test_diff_base_sees_every_name(repo: Path):
    git(repo, "checkout", "-qb", "topic")
    paths = add_files(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd names")
    assert changes_since("main", repo).added == {p: frozenset({1, 2}) for p in paths}


def test_renamed_files_with_odd_names(repo: Path):
    paths = add_files(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "odd names")
    moved = repo / "moved here.cu"
    git(repo, "mv", os.fsencode(paths[4]), os.fsencode(moved))
    moved.write_bytes(moved.read_bytes() + b"int z;\n")
    git(repo, "add", "-A")
    assert staged_changes(repo).added == {moved: frozenset({3})}


def test_index_copies_of_odd_names(repo: Path):
    paths = add_files(repo)
    git(repo, "add", "-A")
    for path in paths:
        path.write_bytes(b"unstaged\n")
    assert unstaged_files(repo) == set(paths)
    folder, copies = index_copies(repo, paths)
    try:
        assert {p: copies[p].read_bytes() for p in paths} == \
            {p: b"int y;\n" + VIOLATION for p in paths}
    finally:
        folder.cleanup()


def test_check_staged_fails_on_every_odd_name(repo: Path):
    add_files(repo)
    git(repo, "add", "-A")
    result = CliRunner().invoke(cli, ["check", "--staged"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert len(result.stdout.splitlines()) == len(NAMES)
    assert f"{len(NAMES)} new violations in {len(NAMES)} files" in result.stderr
    for shown in ("my kernel.cu:2:", "tab\\x09kernel.cu:2:", "new\\x0aline.cu:2:",
                  'quote"d.cu:2:', "k\\xff.cu:2:", "sub dir/a b.cu:2:"):
        assert shown in result.stdout


def test_check_staged_reads_the_index_copy_of_odd_names(repo: Path):
    paths = add_files(repo)
    git(repo, "add", "-A")
    for path in paths:  # the working copies are clean; what is committed is not
        path.write_bytes(b"int y;\nint fine;\n")
    result = CliRunner().invoke(cli, ["check", "--staged"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert f"{len(NAMES)} new violations in {len(NAMES)} files" in result.stderr


def test_check_staged_with_a_space_in_the_name(repo: Path):
    # The report of issue 14: `+++ b/my kernel.cu<TAB>` made the file invisible.
    (repo / "my kernel.cu").write_bytes(VIOLATION)
    git(repo, "add", "-A")
    result = CliRunner().invoke(cli, ["check", "--staged"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("my kernel.cu:1:12: HP901 ")
