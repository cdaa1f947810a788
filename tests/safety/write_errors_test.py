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


@pytest.mark.parametrize("options, words", [
    ("size=48k", "No space left on device"),
    ("ro", "Read-only file system"),
])
def test_the_first_write_error_stops_the_run(tmp_path: Path, mount, options: str, words: str):
    src = tmp_path / "src"
    before = make_tree(src, 60)
    out = mount(options) / "out"
    result = run(str(src), "-o", str(out), "--force")
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr  # one message, not one per file
    assert lines[0].startswith("hipport: error: cannot write ") and words in lines[0]
    assert "the run stopped" in lines[0] and "HP006" not in result.stderr
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
