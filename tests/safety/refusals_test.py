"""What hipport refuses to do, and what it skips and says so."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
HIP = b"#include <hip/hip_runtime.h>\nvoid f(float* p) { hipFree(p); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, ["convert", *args, "-j", "1"], catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.cu").write_bytes(CUDA)
    return src


def test_output_inside_input_and_input_inside_output(tree: Path, tmp_path: Path):
    inside = run(str(tree), "-o", str(tree / "sub" / "hip"))
    assert inside.exit_code == 2 and "inside the input tree" in inside.stderr
    around = run(str(tree), "-o", str(tmp_path), "--force")
    assert around.exit_code == 2 and "contains the input" in around.stderr
    assert not (tree / "sub" / "hip").exists()
    assert (tree / "a.cu").read_bytes() == CUDA


@pytest.mark.parametrize("named", ["folders", "files"])
def test_two_inputs_of_one_name_never_overwrite_each_other(tmp_path: Path, named: str):
    first, second = tmp_path / "a" / "src", tmp_path / "b" / "src"
    for folder, body in ((first, CUDA), (second, CUDA.replace(b"f(", b"g("))):
        folder.mkdir(parents=True)
        (folder / "k.cu").write_bytes(body)
    inputs = [first, second] if named == "folders" else [first / "k.cu", second / "k.cu"]
    out = tmp_path / "out"
    result = run(*map(str, inputs), "-o", str(out))
    assert result.exit_code == 2, result.output
    assert "would both be written to" in result.stderr and "k.cu" in result.stderr
    assert not out.exists()
    # inputs of different names still share one output folder, each under its own name
    (tmp_path / "b" / "src").rename(tmp_path / "b" / "lib")
    assert run(str(first), str(tmp_path / "b" / "lib"), "-o", str(out)).exit_code == 0
    assert b"hipFree" in (out / "src" / "k.cu").read_bytes()
    assert b"g(" in (out / "lib" / "k.cu").read_bytes()


def test_non_empty_output_needs_force(tree: Path, tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    refused = run(str(tree), "-o", str(out))
    assert refused.exit_code == 2 and "--force" in refused.stderr
    assert os.listdir(out) == ["mine.txt"]


def test_symlinks_leaving_the_tree_are_reported_and_never_written(tree: Path, tmp_path: Path):
    outside = tmp_path / "outside.cu"
    outside.write_bytes(CUDA)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.cu").write_bytes(CUDA)
    (tree / "link.cu").symlink_to(outside)
    (tree / "sub" / "dotdot.cu").symlink_to(Path("..") / ".." / "outside.cu")
    (tree / "dirlink").symlink_to(tmp_path / "elsewhere")
    result = run(str(tree), "--in-place")
    assert result.exit_code == 0, result.output
    assert outside.read_bytes() == CUDA and (tmp_path / "elsewhere" / "x.cu").read_bytes() == CUDA
    assert (tree / "link.cu").is_symlink() and (tree / "sub" / "dotdot.cu").is_symlink()
    for name in ("link.cu", "dotdot.cu", "dirlink"):
        assert f"{name}: skipped: symlink pointing outside the tree; not followed" \
            in result.stderr
    assert (tree / "a.cu").read_bytes() == HIP


def test_in_place_never_replaces_a_symlink_inside_the_tree(tree: Path):
    (tree / "alias.cu").symlink_to("a.cu")
    result = run(str(tree), "--in-place")
    assert result.exit_code == 0, result.output
    assert (tree / "alias.cu").is_symlink() and os.readlink(tree / "alias.cu") == "a.cu"
    assert (tree / "a.cu").read_bytes() == HIP
    assert "alias.cu: skipped: symlink; its target is converted where it lives" in result.stderr


def test_dot_dot_in_the_given_path_is_resolved_not_escaped(tree: Path):
    result = run(str(tree / "sub" / ".." / "a.cu"), "--in-place")
    assert result.exit_code == 0, result.output
    assert (tree / "a.cu").read_bytes() == HIP
    assert sorted(p.name for p in tree.iterdir()) == ["a.cu", "sub"]


def test_fifos_are_skipped_not_read(tree: Path, tmp_path: Path):
    os.mkfifo(tree / "pipe.cu")  # reading it would block forever
    result = run(str(tree), "--in-place")
    assert result.exit_code == 0, result.output
    assert "pipe.cu: skipped: not a regular file" in result.stderr
    mirrored = run(str(tree), "-o", str(tmp_path / "out"))
    assert mirrored.exit_code == 0 and not (tmp_path / "out" / "pipe.cu").exists()
    named = run(str(tree / "pipe.cu"), "--diff")
    assert named.exit_code == 0 and "not a regular file" in named.stderr


def test_backup_suffix(tree: Path):  # more in backup_test.py
    result = run(str(tree), "--in-place", "--backup", ".orig")
    assert result.exit_code == 0, result.output
    assert (tree / "a.cu").read_bytes() == HIP and (tree / "a.cu.orig").read_bytes() == CUDA
    # A second run changes nothing, so the backup keeps the CUDA original.
    assert run(str(tree), "--in-place", "--backup", ".orig").exit_code == 0
    assert (tree / "a.cu.orig").read_bytes() == CUDA


@pytest.mark.parametrize("args, words", [
    (["--diff", "--backup", ".orig"], "--backup only applies to --in-place"),
    (["--in-place", "--backup", "x/y"], "not a file-name suffix"),
    (["--in-place", "--backup", ""], "not a file-name suffix"),
])
def test_bad_backup_is_a_usage_error(tree: Path, args, words):
    result = run(str(tree), *args)
    assert result.exit_code == 2 and words in result.stderr
    assert (tree / "a.cu").read_bytes() == CUDA


def test_leftover_temporary_files_are_removed_by_in_place_and_reported_otherwise(
        tree: Path, tmp_path: Path):
    leftover = tree / "sub" / ".b.cu.abcd1234.hipport-tmp"
    leftover.write_bytes(CUDA[:10])  # what a SIGKILL mid-write leaves
    diff = run(str(tree), "--diff")
    assert "temporary file left by an interrupted hipport run (safe to delete" in diff.stderr
    mirrored = run(str(tree), "-o", str(tmp_path / "out"))
    assert mirrored.exit_code == 0 and not list((tmp_path / "out").rglob("*.hipport-tmp"))
    assert leftover.exists()
    result = run(str(tree), "--in-place")
    assert result.exit_code == 0
    assert "removed: temporary file left by an interrupted hipport run" in result.stderr
    assert not leftover.exists()


def test_a_symlinked_folder_in_the_output_tree_is_never_written_through(tree: Path,
                                                                         tmp_path: Path):
    (tree / "sub" / "b.cu").write_bytes(CUDA)
    out = tmp_path / "out"
    out.mkdir()
    (out / "sub").symlink_to(Path("..") / "src" / "sub")
    result = run(str(tree), "-o", str(out), "--force")
    assert result.exit_code == 2
    assert "in the output tree is a symbolic link; hipport never writes through it" \
        in result.stderr
    assert (tree / "sub" / "b.cu").read_bytes() == CUDA
    assert sorted(os.listdir(out)) == ["sub"]


def test_the_write_time_guard_refuses_a_link_that_appears_later(tmp_path: Path):
    from hipport.writing import UnsafeOutput, make_parents

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "sub").symlink_to(elsewhere)
    with pytest.raises(UnsafeOutput, match="is a symbolic link"):
        make_parents(out / "sub" / "deeper" / "a.cu", out)
    assert os.listdir(elsewhere) == []


def test_a_file_named_twice_is_converted_once(tree: Path):
    result = run(str(tree), str(tree / "a.cu"), "--in-place")
    assert result.exit_code == 0, result.output
    assert "1 file converted" in result.stderr and (tree / "a.cu").read_bytes() == HIP


def test_a_missing_input_is_named_before_the_output_is_judged(tree: Path, tmp_path: Path,
                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("missing", "-o", "out")
    assert result.exit_code == 2
    assert "missing: no such file or directory" in result.stderr
    assert "inside the input tree" not in result.stderr and not (tmp_path / "out").exists()


def _loops(tree: Path) -> None:
    (tree / "loop1").symlink_to("loop2")
    (tree / "loop2").symlink_to("loop1")
    (tree / "sub" / "through.cu").symlink_to(Path("..") / "loop1" / "a.cu")


@pytest.mark.parametrize("args", [["--in-place"], ["-o", "OUT"], ["--diff"]])
def test_symlink_loops_are_skipped_and_said(tree: Path, tmp_path: Path, args: list[str]):
    _loops(tree)
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    result = run(str(tree), *args)
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.stderr
    for name in ("loop1", "loop2", "through.cu"):
        assert f"{name}: skipped: symlink loop (it never reaches a file); not followed" \
            in result.stderr
    if "--in-place" in args:
        assert (tree / "a.cu").read_bytes() == HIP and (tree / "loop1").is_symlink()
    if "-o" in args:
        assert (tmp_path / "out" / "a.cu").read_bytes() == HIP
        assert not os.path.lexists(tmp_path / "out" / "loop1")


def test_check_and_report_skip_symlink_loops(tree: Path):
    _loops(tree)
    # A Makefile whose sources hipport cannot list: the report bills its
    # whole folder, loops included.
    (tree / "Makefile").write_text("SRC := $(shell ls *.cu)\nall: x\nx: $(SRC)\n"
                                   "\tnvcc -o x $(SRC)\n")
    checked = CliRunner().invoke(cli, ["check", str(tree)], catch_exceptions=False)
    assert checked.exit_code == 0, checked.output
    assert "skipped src/loop1: symlink loop" in checked.stderr.replace(str(tree.parent) + "/", "")
    reported = CliRunner().invoke(cli, ["report", str(tree), "--format", "json"],
                                  catch_exceptions=False)
    assert reported.exit_code == 0, reported.output
    skipped = json.loads(reported.stdout)["skipped"]
    assert len(skipped) == 3 and all("symlink loop" in s for s in skipped)


@pytest.mark.parametrize("command", ["convert", "check", "report"])
def test_a_named_symlink_loop_is_a_usage_error(tree: Path, command: str):
    _loops(tree)
    result = CliRunner().invoke(cli, [command, str(tree / "loop1")], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert "loop1: symbolic link loop" in result.stderr
