"""Two runs over one tree, and a program writing while hipport converts
(issue 14, items 2 and 3): nothing anyone wrote is lost."""
from __future__ import annotations

import random
import subprocess
import threading
import time
from pathlib import Path

import pytest

from hipport.locking import TreeBusy, writing_under
from tests.safety.harness import _env, command, make_tree, run, snapshot
from tests.safety.refusals_test import CUDA
from tests.safety.refusals_test import run as cli

FILES = 600


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path / "src"
    return root, make_tree(root, FILES)


@pytest.mark.slow
def test_a_second_writer_over_the_same_tree_is_refused(tree):
    root, before = tree
    cmd = command(root, "-j", "1", "--backup", ".orig")
    first = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=_env(root))
    deadline = time.monotonic() + 120
    while not any((root / rel).read_bytes() != data for rel, data in list(before.items())[:50]):
        assert first.poll() is None and time.monotonic() < deadline, "no progress"
        time.sleep(0.02)
    second = subprocess.run(cmd, capture_output=True, text=True, env=_env(root), timeout=600)
    assert first.wait(timeout=600) == 0
    assert second.returncode == 2
    assert "another hipport run is writing under" in second.stderr
    now = snapshot(root)
    backups = {rel[:-len(".orig")]: data for rel, data in now.items() if rel.endswith(".orig")}
    assert backups, "the first run made no backups"
    assert all(before[rel] == data for rel, data in backups.items()), \
        "a backup holds something else than the original"


@pytest.mark.parametrize("held, attempt", [
    ("src", "src"), ("src", "src/sub"), ("src/sub", "src"), ("src/a.cu", "src"),
])
def test_the_lock_covers_parts_and_wholes_of_a_tree(tmp_path: Path, held: str, attempt: str):
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "a.cu").write_bytes(CUDA)
    (tmp_path / "src" / "sub" / "b.cu").write_bytes(CUDA)
    with writing_under([tmp_path / held]):
        result = cli(str(tmp_path / attempt), "--in-place")
        assert result.exit_code == 2 and "another hipport run is writing under" in result.stderr
        with pytest.raises(TreeBusy):
            with writing_under([tmp_path / attempt]):
                pass
    assert (tmp_path / "src" / "a.cu").read_bytes() == CUDA
    assert cli(str(tmp_path / attempt), "--in-place").exit_code == 0


def test_unrelated_trees_and_readers_are_not_locked(tmp_path: Path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.cu").write_bytes(CUDA)
    with writing_under([tmp_path / "one"]):
        assert cli(str(tmp_path / "two"), "--in-place").exit_code == 0
        assert cli(str(tmp_path / "one"), "--diff").exit_code == 0
        assert cli(str(tmp_path / "one"), "-o", str(tmp_path / "out")).exit_code == 0


@pytest.mark.slow
def test_appends_made_during_an_in_place_run_are_never_lost(tree):
    root, before = tree
    names = sorted(before)
    stop = threading.Event()
    appended: list[tuple[str, bytes]] = []

    def writer() -> None:
        rnd = random.Random(14)
        while not stop.is_set():
            rel = rnd.choice(names)
            marker = f"// appended {len(appended)}\n".encode()
            with open(root / rel, "ab") as handle:
                handle.write(marker)
            appended.append((rel, marker))
            time.sleep(0.0002)

    proc = subprocess.Popen([c for c in command(root, "-j", "2") if c != "-q"],
                            stderr=subprocess.PIPE, text=True, env=_env(root))
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        _, err = proc.communicate(timeout=600)
    finally:
        stop.set()
        thread.join()
    lost = [(rel, m) for rel, m in appended if m not in (root / rel).read_bytes()]
    print(f"{len(appended)} appends during the run, {len(lost)} lost, "
          f"{err.count('HP008')} files left for the other writer (HP008)")
    assert len(appended) > 1000, "too few appends to race with the run"
    assert not lost, f"{len(lost)} appends lost, e.g. {lost[:3]}"
    # Files skipped for the writer convert on the next run, appends included.
    again = run(root, "-j", "2")
    assert again.returncode == 0, again.stderr
    assert all(m in (root / rel).read_bytes() for rel, m in appended)
