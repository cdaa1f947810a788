"""write_atomic / copy_file / replace_source: complete or untouched, mode kept, and
no temporary file left behind by an error or a Ctrl-C."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipport import replace, writing
from hipport.replace import read_source, replace_source
from hipport.writing import copy_file, is_temporary, write_atomic


def test_replaces_content_and_keeps_mode(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"old")
    os.chmod(f, 0o751)
    write_atomic(f, b"new")
    assert f.read_bytes() == b"new"
    assert f.stat().st_mode & 0o7777 == 0o751
    assert os.listdir(tmp_path) == ["k.cu"]


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError])
def test_interrupted_write_leaves_the_original_and_no_temporary(tmp_path: Path, monkeypatch,
                                                                error):
    f = tmp_path / "k.cu"
    f.write_bytes(b"original")

    def fail(*args):
        raise error()
    monkeypatch.setattr(writing.os, "replace", fail)
    monkeypatch.setattr(replace.os, "replace", fail)
    with pytest.raises(error):
        write_atomic(f, b"converted" * 1000)
    with pytest.raises(error):
        copy_file(f, tmp_path / "copy.cu")
    data, identity = read_source(f)
    with pytest.raises(error):  # the backup of a file not replaced goes too
        replace_source(f, b"converted", original=data, expected=identity, backup=".orig")
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
    monkeypatch.setattr(replace.os, "replace", spy)
    held: list[str] = []
    real_link = replace.os.link

    def link_spy(a, b, **kwargs):
        held.append(os.path.basename(b))
        real_link(a, b, **kwargs)
    monkeypatch.setattr(replace.os, "link", link_spy)
    f = tmp_path / "kernel.cu"
    f.write_bytes(b"a")
    write_atomic(f, b"b")
    copy_file(f, tmp_path / "c.cu")
    data, identity = read_source(f)
    replace_source(f, b"c", original=data, expected=identity)
    assert len(seen) == 3 and all(is_temporary(name) for name in seen + held)
    for name in ("kernel.cu", ".kernel.cu", "kernel.cu.orig", ".hipport-tmp",
                 "a.hipport-tmp", ".a.cu.hipport-tmp", ".a.cu.SHORT.hipport-tmp"):
        assert not is_temporary(name), name
