"""`--backup SUFFIX` never replaces an existing file (issue 14, item 1)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from hipport.replace import NotReplaced, read_source, replace_source
from tests.safety.refusals_test import CUDA, HIP, run


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "t"
    src.mkdir()
    (src / "foo.c").write_bytes(b"void f(void* p) { cudaFree(p); }\n")
    (src / "foo.cu").write_bytes(b"void g(void** p) { cudaMalloc(p, 4); }\n")
    return src


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in root.iterdir()}


def test_a_suffix_naming_backups_like_sources_is_refused_before_anything_is_written(tree):
    before = _files(tree)
    result = run(str(tree), "--in-place", "--backup", "u")  # foo.c + u = foo.cu
    assert result.exit_code == 2
    assert "--backup u: backups would be named like files hipport converts" in result.stderr
    assert "foo.c -> " in result.stderr and "foo.cu" in result.stderr
    assert _files(tree) == before


def test_an_existing_file_with_the_backup_name_is_kept_and_a_free_name_used(tree):
    (tree / "foo.cu.orig").write_bytes(b"my notes\n")
    original = (tree / "foo.cu").read_bytes()
    result = run(str(tree), "--in-place", "--backup", ".orig")
    assert result.exit_code == 0, result.output
    assert (tree / "foo.cu.orig").read_bytes() == b"my notes\n"
    assert (tree / "foo.cu.orig.1").read_bytes() == original
    assert b"hipMalloc" in (tree / "foo.cu").read_bytes()
    assert "HP010 foo.cu.orig already exists; the original was kept as foo.cu.orig.1" \
        in result.stderr


def test_a_second_conversion_keeps_the_first_backup(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(CUDA)
    assert run(str(src), "--in-place", "--backup", ".orig").exit_code == 0
    # The user adds CUDA code to the converted file and converts again.
    (src / "a.cu").write_bytes(HIP + b"void g(void* q) { cudaFree(q); }\n")
    again = run(str(src), "--in-place", "--backup", ".orig")
    assert again.exit_code == 0, again.output
    assert (src / "a.cu.orig").read_bytes() == CUDA  # the first original survives
    assert (src / "a.cu.orig.1").read_bytes() == HIP + b"void g(void* q) { cudaFree(q); }\n"


def test_backups_are_created_exclusively_even_without_hard_links(tmp_path: Path, monkeypatch):
    f = tmp_path / "k.cu"
    f.write_bytes(b"v1")
    (tmp_path / "k.cu~").write_bytes(b"someone else's")

    def no_links(*args, **kwargs):
        raise PermissionError(1, "Operation not permitted")  # as on FAT
    monkeypatch.setattr(os, "link", no_links)
    data, identity = read_source(f)
    done = replace_source(f, b"v2", original=data, expected=identity, backup="~")
    assert done.backup == tmp_path / "k.cu~.1" and done.backup_renamed
    assert (tmp_path / "k.cu~").read_bytes() == b"someone else's"
    assert (tmp_path / "k.cu~.1").read_bytes() == b"v1" and f.read_bytes() == b"v2"


def test_a_refused_replacement_leaves_no_backup(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"v1")
    data, identity = read_source(f)
    f.write_bytes(b"v1 edited")  # changed after it was read
    with pytest.raises(NotReplaced):
        replace_source(f, b"v2", original=data, expected=identity, backup=".orig")
    assert sorted(os.listdir(tmp_path)) == ["k.cu"]
