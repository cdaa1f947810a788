"""Added lines from `git diff --unified=0`: the parser, and real repositories."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hipport.check.gitdiff import (
    GitError,
    changes_since,
    index_copies,
    parse_added_lines,
    staged_changes,
    unstaged_files,
)

ROOT = Path("/repo")


def test_parse_hunks_and_counts():
    diff = (
        "diff --git a/src/a.cu b/src/a.cu\n"
        "index 1..2 100644\n"
        "--- a/src/a.cu\n"
        "+++ b/src/a.cu\n"
        "@@ -3 +3 @@ void f() {\n"
        "-old();\n"
        "+new_call();\n"
        "@@ -10,0 +11,2 @@\n"
        "+one();\n"
        "+two();\n"
        "@@ -20,2 +22,0 @@\n"
        "-gone();\n"
        "-gone2();\n"
    )
    assert parse_added_lines(diff, ROOT) == {ROOT / "src/a.cu": frozenset({3, 11, 12})}


def test_body_lines_that_look_like_headers_are_not_headers():
    # An added `++i;` is `+++i;` in the diff; a removed `-- x` is `--- x`.
    diff = (
        "diff --git a/a.cu b/a.cu\n"
        "--- a/a.cu\n"
        "+++ b/a.cu\n"
        "@@ -1,2 +1,2 @@\n"
        "--- x;\n"
        "-@@ -9 +9 @@\n"
        "+++i;\n"
        "+@@ -5 +7,30 @@\n"
    )
    assert parse_added_lines(diff, ROOT) == {ROOT / "a.cu": frozenset({1, 2})}


def test_new_deleted_renamed_and_quoted_files():
    diff = (
        "diff --git a/gone.cu b/gone.cu\n"
        "deleted file mode 100644\n"
        "--- a/gone.cu\n"
        "+++ /dev/null\n"
        "@@ -1 +0,0 @@\n"
        "-x\n"
        "diff --git a/new.cu b/new.cu\n"
        "new file mode 100644\n"
        "--- /dev/null\n"
        "+++ b/new.cu\n"
        "@@ -0,0 +1,2 @@\n"
        "+a\n"
        "+b\n"
        "\\ No newline at end of file\n"
        'diff --git "a/we\\tird \\"x\\".cu" "b/we\\tird \\"x\\".cu"\n'
        '--- "a/we\\tird \\"x\\".cu"\n'
        '+++ "b/we\\tird \\"x\\".cu"\n'
        "@@ -1 +1 @@\n"
        "-a\n"
        "+b\n"
        "diff --git a/caf\\303\\251.cu b/caf\\303\\251.cu\n"
        '+++ "b/caf\\303\\251.cu"\n'
        "@@ -0,0 +5 @@\n"
        "+x\n"
        "diff --git a/img.png b/img.png\n"
        "Binary files a/img.png and b/img.png differ\n"
    )
    assert parse_added_lines(diff, ROOT) == {
        ROOT / "new.cu": frozenset({1, 2}),
        ROOT / 'we\tird "x".cu': frozenset({1}),
        ROOT / "café.cu": frozenset({5}),
    }


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "test@example.com")
    git(root, "config", "user.name", "Test")
    git(root, "config", "diff.noprefix", "true")  # hostile settings must not matter
    git(root, "config", "color.diff", "always")
    return root.resolve()


def test_staged_before_the_first_commit(repo: Path):
    (repo / "a.cu").write_text("one\ntwo\n")
    git(repo, "add", "a.cu")
    change = staged_changes(repo)
    assert change.added == {repo / "a.cu": frozenset({1, 2})}


def test_staged_and_unstaged(repo: Path):
    (repo / "a.cu").write_text("one\ntwo\nthree\n")
    git(repo, "add", "a.cu")
    git(repo, "commit", "-qm", "init")
    (repo / "a.cu").write_text("zero\none\ntwo\nthree\n")
    git(repo, "add", "a.cu")
    (repo / "a.cu").write_text("zero\none\ntwo\nthree\nunstaged\n")
    change = staged_changes(repo / ".")
    assert change.added == {repo / "a.cu": frozenset({1})}
    assert unstaged_files(repo) == {repo / "a.cu"}
    folder, copies = index_copies(repo, [repo / "a.cu"])
    try:
        assert copies[repo / "a.cu"].read_text() == "zero\none\ntwo\nthree\n"
    finally:
        folder.cleanup()


def test_diff_base_uses_the_merge_base(repo: Path):
    (repo / "a.cu").write_text("one\n")
    git(repo, "add", "a.cu")
    git(repo, "commit", "-qm", "init")
    git(repo, "checkout", "-qb", "topic")
    (repo / "a.cu").write_text("one\nmine\n")
    git(repo, "commit", "-qam", "topic work")
    git(repo, "checkout", "-q", "main")
    (repo / "b.cu").write_text("theirs\n")
    git(repo, "add", "b.cu")
    git(repo, "commit", "-qm", "main moves on")
    git(repo, "checkout", "-q", "topic")
    change = changes_since("main", repo)
    # b.cu is main's change, not ours: only what topic added since the fork counts.
    assert change.added == {repo / "a.cu": frozenset({2})}
    assert "merge base" in change.description


def test_pathspecs_limit_the_diff(repo: Path):
    for name in ("a.cu", "b.cu"):
        (repo / name).write_text("x\n")
    git(repo, "add", ".")
    assert set(staged_changes(repo, [repo / "b.cu"]).added) == {repo / "b.cu"}


def test_clear_errors(tmp_path: Path, repo: Path):
    outside = tmp_path / "plain"
    outside.mkdir()
    with pytest.raises(GitError, match="not inside a git repository"):
        staged_changes(outside)
    (repo / "a.cu").write_text("x\n")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "init")
    with pytest.raises(GitError, match="--diff-base no-such-rev: unknown revision"):
        changes_since("no-such-rev", repo)
    with pytest.raises(GitError, match="not a revision"):
        changes_since("--output=/tmp/x", repo)
