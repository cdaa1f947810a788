"""write_atomic / copy_file: complete or untouched, mode kept, backups, and
no temporary file left behind by an error or a Ctrl-C."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipport import writing
from hipport.writing import copy_file, is_temporary, write_atomic


def test_replaces_content_and_keeps_mode(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"old")
    os.chmod(f, 0o751)
    write_atomic(f, b"new")
    assert f.read_bytes() == b"new"
    assert f.stat().st_mode & 0o7777 == 0o751
    assert os.listdir(tmp_path) == ["k.cu"]


def test_backup_holds_the_original_and_is_replaced_on_the_next_write(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"v1")
    write_atomic(f, b"v2", backup=".orig")
    assert (f.read_bytes(), (tmp_path / "k.cu.orig").read_bytes()) == (b"v2", b"v1")
    write_atomic(f, b"v3", backup=".orig")
    assert (f.read_bytes(), (tmp_path / "k.cu.orig").read_bytes()) == (b"v3", b"v2")
    assert sorted(os.listdir(tmp_path)) == ["k.cu", "k.cu.orig"]


def test_backup_is_a_copy_where_hard_links_fail(tmp_path: Path, monkeypatch):
    def no_links(*args):
        raise OSError("no hard links")
    monkeypatch.setattr(os, "link", no_links)
    f = tmp_path / "k.cu"
    f.write_bytes(b"v1")
    write_atomic(f, b"v2", backup="~")
    assert (tmp_path / "k.cu~").read_bytes() == b"v1" and f.read_bytes() == b"v2"


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_interrupted_write_leaves_the_original_and_no_temporary(tmp_path: Path, monkeypatch,
                                                                error):
    f = tmp_path / "k.cu"
    f.write_bytes(b"original")

    def fail(*args):
        raise error()
    monkeypatch.setattr(writing.os, "replace", fail)
    with pytest.raises(error):
        write_atomic(f, b"converted" * 1000, backup=".orig")
    with pytest.raises(error):
        copy_file(f, tmp_path / "copy.cu")
    assert f.read_bytes() == b"original"
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]


def test_copy_file_is_complete_and_keeps_mode(tmp_path: Path):
    src = tmp_path / "a.txt"
    src.write_bytes(b"x" * 100_000)
    os.chmod(src, 0o640)
    copy_file(src, tmp_path / "out" / "a.txt")
    copied = tmp_path / "out" / "a.txt"
    assert copied.read_bytes() == src.read_bytes()
    assert copied.stat().st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path / "out") == ["a.txt"]


def test_temporary_names_are_recognised_and_nothing_else(tmp_path: Path, monkeypatch):
    seen: list[str] = []
    real = writing.os.replace

    def spy(a, b):
        seen.append(os.path.basename(a))
        real(a, b)
    monkeypatch.setattr(writing.os, "replace", spy)
    f = tmp_path / "kernel.cu"
    f.write_bytes(b"a")
    write_atomic(f, b"b", backup=".orig")
    copy_file(f, tmp_path / "c.cu")
    assert len(seen) == 3 and all(is_temporary(name) for name in seen)
    for name in ("kernel.cu", ".kernel.cu", "kernel.cu.orig", ".hipport-tmp",
                 "a.hipport-tmp", ".a.cu.hipport-tmp", ".a.cu.SHORT.hipport-tmp"):
        assert not is_temporary(name), name
