"""A full disk or a read-only output folder stops the run at the first file
with one clear message (exit 2), never a stream of internal errors, and
leaves nothing half-written (issue 14).  Real file systems: a tiny tmpfs and
a read-only one (root only, as in CI)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from hipport.writing import is_temporary
from tests.ci import missing
from tests.safety.harness import make_tree, snapshot
from tests.safety.refusals_test import run


@pytest.fixture
def mount(tmp_path: Path):
    if os.geteuid() != 0:
        missing("mounting a tmpfs needs root")
    point = tmp_path / "mnt"
    point.mkdir()
    mounted: list[Path] = []

    def make(options: str) -> Path:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)],
                              capture_output=True, text=True)
        if done.returncode:
            missing(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        mounted.append(point)
        return point
    yield make
    for m in mounted:
        subprocess.run(["umount", str(m)], check=False)


@pytest.mark.parametrize("options, words, said", [
    ("size=48k", "No space left on device", "the run stopped"),
    # A read-only output folder is found before anything is written.
    ("ro", "Read-only file system", "nothing was written"),
])
def test_the_first_write_error_stops_the_run(tmp_path: Path, mount, options: str, words: str,
                                             said: str):
    src = tmp_path / "src"
    before = make_tree(src, 60)
    out = mount(options) / "out"
    result = run(str(src), "-o", str(out), "--force")
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr  # one message, not one per file
    assert lines[0].startswith("hipport: error: cannot write ") and words in lines[0]
    assert said in lines[0] and "HP006" not in result.stderr
    assert snapshot(src) == before
    if out.exists():  # whatever was written is complete
        written = snapshot(out)
        assert not [rel for rel in written if is_temporary(Path(rel).name)]


def test_a_full_disk_during_in_place_leaves_every_file_whole(tmp_path: Path, mount):
    point = mount("size=1m")
    src = point / "src"
    before = make_tree(src, 40)
    free = os.statvfs(point)
    (point / "filler").write_bytes(b"\0" * ((free.f_bavail - 1) * free.f_frsize))
    result = run(str(src), "--in-place")
    assert result.exit_code == 2 and "No space left on device" in result.stderr, result.output
    now = snapshot(src)
    assert set(now) == set(before)  # nothing lost, no temporary file left
    assert sum(now[k] != v for k, v in before.items()) < len(before)


WARP = b"#include <cuda_runtime.h>\n__global__ void k(int* p) { __syncwarp(); p[0] = 1; }\n"


@pytest.fixture
def read_only_top(tmp_path: Path):
    """A tree whose top folder is read-only and whose ``sub`` is writable
    (as root, whom the mode bits do not stop: a read-only bind mount with a
    writable one on ``sub``)."""
    tree, writable = tmp_path / "tree", tmp_path / "writable"
    (tree / "sub").mkdir(parents=True)
    writable.mkdir()
    mounted: list[Path] = []

    def make(top: dict[str, bytes], below: dict[str, bytes]) -> Path:
        for name, data in top.items():
            (tree / name).write_bytes(data)
        for name, data in below.items():
            (writable / name).write_bytes(data)
        if os.geteuid() != 0:  # the mode bits are enough
            for name, data in below.items():
                (tree / "sub" / name).write_bytes(data)
            tree.chmod(0o555)
            mounted.append(Path())  # the mode is restored at the end
            return tree
        for args in (["--bind", str(tree), str(tree)],
                     ["-o", "remount,bind,ro", str(tree)],
                     ["--bind", str(writable), str(tree / "sub")]):
            done = subprocess.run(["mount", *args], capture_output=True, text=True)
            if done.returncode:
                missing(f"cannot bind-mount here: {done.stderr.strip()}")
            if args[0] == "--bind":
                mounted.append(Path(args[2]))
        return tree
    yield make
    for point in reversed(mounted):
        if point == Path():
            tree.chmod(0o755)
        else:
            subprocess.run(["umount", str(point)], check=False)


@pytest.mark.parametrize("strategy, header", [("rewrite", "hipport_polyfills.h"),
                                              ("compat", "hip_compat.h")])
def test_a_read_only_header_folder_stops_the_run_before_any_source_is_rewritten(
        read_only_top, strategy: str, header: str):
    # Issue 31 §6: sub/warp.cu was rewritten to include ../hipport_polyfills.h,
    # the header could not be written, and the tree no longer compiled.
    tree = read_only_top({}, {"warp.cu": WARP})
    result = run(str(tree), "--in-place", "--strategy", strategy)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("hipport: error: cannot write ")
    assert header in result.stderr and "nothing was written" in result.stderr
    assert ("--polyfills none" in result.stderr) == (strategy == "rewrite")
    assert (tree / "sub" / "warp.cu").read_bytes() == WARP
    assert not (tree / header).exists()


def test_a_subfolder_converted_again_with_its_trees_header_read_only(read_only_top):
    from hipport.polyfills import render

    # The tree's header above (found and updated, issue 31 §7) is read-only.
    header = render({"__syncwarp"})
    reduce = WARP.replace(b"p[0] = 1", b"p[0] = __reduce_add_sync(~0u, 1)")
    tree = read_only_top({"hipport_polyfills.h": header, ".git": b""}, {"warp.cu": reduce})
    before = (tree / "sub" / "warp.cu").read_bytes()
    result = run(str(tree / "sub"), "--in-place")
    assert result.exit_code == 2, result.output
    assert "cannot write" in result.stderr and "nothing was written" in result.stderr
    assert (tree / "sub" / "warp.cu").read_bytes() == before
    assert (tree / "hipport_polyfills.h").read_bytes() == header
    assert not (tree / "sub" / "hipport_polyfills.h").exists()


def test_a_read_only_source_folder_is_named_before_anything_is_written(read_only_top):
    cuda = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
    tree = read_only_top({"top.cu": cuda}, {"warp.cu": cuda})
    result = run(str(tree), "--in-place", "--polyfills", "none")
    assert result.exit_code == 2, result.output
    assert "cannot write tree/top.cu" in result.stderr.replace(str(tree.parent) + "/", "")
    assert "--exclude" in result.stderr
    assert (tree / "sub" / "warp.cu").read_bytes() == cuda
    assert run(str(tree), "--in-place", "--exclude", "top.cu", "--polyfills", "none").exit_code == 0
    assert b"hipFree" in (tree / "sub" / "warp.cu").read_bytes()
