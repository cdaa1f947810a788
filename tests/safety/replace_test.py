"""In-place replacement keeps what other programs write (issue 14, item 3),
and leaves read-only and hard-linked files alone unless forced."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hipport import replace
from hipport.replace import NotReplaced, read_source, replace_source
from tests.safety.refusals_test import CUDA, HIP, run


@pytest.fixture
def source(tmp_path: Path) -> Path:
    f = tmp_path / "k.cu"
    f.write_bytes(b"original\n")
    return f


def test_replaces_when_nobody_else_wrote(source: Path):
    data, identity = read_source(source)
    replace_source(source, b"converted\n", original=data, expected=identity)
    assert source.read_bytes() == b"converted\n"
    assert os.listdir(source.parent) == ["k.cu"]  # the held original is gone too


@pytest.mark.parametrize("edit", [
    pytest.param(lambda f: f.open("ab").write(b"appended\n"), id="append"),
    pytest.param(lambda f: f.write_bytes(b"ORIGINAL\n"), id="same-size-rewrite"),
    pytest.param(lambda f: (f.unlink(), f.write_bytes(b"new file\n")), id="replaced"),
])
def test_a_file_changed_after_it_was_read_is_left_as_it_is_now(source: Path, edit):
    data, identity = read_source(source)
    edit(source)
    now = source.read_bytes()
    os.utime(source, ns=(identity.mtime_ns, identity.mtime_ns))  # even with the old mtime
    with pytest.raises(NotReplaced) as raised:
        replace_source(source, b"converted\n", original=data, expected=identity)
    assert raised.value.code == "HP008"
    assert source.read_bytes() == now
    assert os.listdir(source.parent) == ["k.cu"]


def test_a_write_landing_during_the_rename_is_put_back(source: Path, monkeypatch):
    """The window between the last check and the rename: the original inode
    is held under a second name, so a write into it is noticed and restored."""
    data, identity = read_source(source)
    real_replace = os.replace
    calls = []

    def replace_while_someone_appends(a, b):
        if not calls:
            with open(b, "ab") as other:  # another program, just in time
                other.write(b"late append\n")
        calls.append((a, b))
        real_replace(a, b)
    monkeypatch.setattr(replace.os, "replace", replace_while_someone_appends)
    with pytest.raises(NotReplaced) as raised:
        replace_source(source, b"converted\n", original=data, expected=identity)
    assert raised.value.code == "HP008"
    assert source.read_bytes() == b"original\nlate append\n"
    assert os.listdir(source.parent) == ["k.cu"]


def test_read_only_files_are_refused_unless_forced(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    ro = src / "ro.cu"
    ro.write_bytes(CUDA)
    ro.chmod(0o444)
    refused = run(str(src), "--in-place")
    assert refused.exit_code == 1
    assert "ro.cu:1:1: HP009 read-only file; left unchanged" in refused.stderr
    assert ro.read_bytes() == CUDA
    forced = run(str(src), "--in-place", "--force")
    assert forced.exit_code == 0, forced.output
    assert ro.read_bytes() == HIP and stat.S_IMODE(ro.stat().st_mode) == 0o444


def test_hard_linked_files_are_refused_unless_forced(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    f = src / "a.cu"
    f.write_bytes(CUDA)
    other = tmp_path / "other-name.cu"
    os.link(f, other)
    refused = run(str(src), "--in-place")
    assert refused.exit_code == 1 and "HP009 has 2 hard links" in refused.stderr
    assert f.read_bytes() == CUDA and os.path.samefile(f, other)
    forced = run(str(src), "--in-place", "--force")
    assert forced.exit_code == 0
    assert f.read_bytes() == HIP and other.read_bytes() == CUDA


def test_a_killed_run_leaving_a_held_original_does_not_make_the_file_look_linked(
        tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    f = src / "a.cu"
    f.write_bytes(CUDA)
    os.link(f, src / ".a.cu.0123abcd.hipport-tmp")  # killed between link and rename
    result = run(str(src), "--in-place")
    assert result.exit_code == 0, result.output
    assert f.read_bytes() == HIP and os.listdir(src) == ["a.cu"]
