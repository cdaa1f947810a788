"""SIGTERM, SIGINT and SIGKILL, sent to the parent, to its process group or
to one worker, in the middle of `convert --in-place -j 2` (issue 14, item 12):
the run stops promptly, no worker outlives it or writes after it, every file
is its original or its complete conversion, and a re-run finishes the job."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.safety.harness import _env, classify, command, make_tree, run, snapshot

pytestmark = pytest.mark.slow

FILES = 400


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    base = tmp_path_factory.mktemp("signals")
    root = base / "pristine"
    before = make_tree(root, FILES)
    converted = base / "converted"
    shutil.copytree(root, converted)
    assert run(converted, "-j", "1").returncode == 0
    return root, before, snapshot(converted)


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            return stat_file.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _start_and_wait_for_progress(tree: Path, before: dict[str, bytes]) -> tuple[
        subprocess.Popen[str], list[int]]:
    proc = subprocess.Popen(command(tree, "-j", "2"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=_env(tree),
                            start_new_session=True)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while time.monotonic() < deadline:
        if len(workers) < 2:
            workers = _children(proc.pid)
        if len(workers) >= 2 and any((tree / rel).read_bytes() != data
                                     for rel, data in list(before.items())[:: 25]):
            return proc, workers
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(0.02)
    raise AssertionError("no progress in 120 s")


EXPECTED = {
    ("TERM", "parent"): 143, ("TERM", "group"): 143, ("INT", "parent"): 130,
    ("INT", "group"): 130, ("KILL", "parent"): -9, ("KILL", "group"): -9,
    ("TERM", "worker"): 2, ("INT", "worker"): 2, ("KILL", "worker"): 2,
}


@pytest.mark.parametrize("name, target", sorted(EXPECTED))
def test_a_signal_stops_the_run_and_its_workers_and_loses_nothing(pristine, tmp_path: Path,
                                                                   name: str, target: str):
    root, before, after = pristine
    tree = tmp_path / "src"
    shutil.copytree(root, tree)
    sig = getattr(signal, f"SIG{name}")
    proc, workers = _start_and_wait_for_progress(tree, before)
    if target == "parent":
        os.kill(proc.pid, sig)
    elif target == "group":
        os.killpg(proc.pid, sig)
    else:
        os.kill(workers[0], sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"SIG{name} to the {target}: the run hung") from None
    assert proc.returncode == EXPECTED[name, target], err
    assert "Traceback" not in err, err
    if target == "worker":
        assert "a worker process was stopped" in err
    # No worker outlives its parent, and nothing is written after the end.
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "a worker outlived the run"
    settled = snapshot(tree)
    time.sleep(0.5)
    assert snapshot(tree) == settled, "files changed after the run ended"
    state = classify(tree, before, after)
    if name != "KILL":  # only an outright kill may leave a temporary file
        assert state.temporary == 0
    assert state.converted and state.original, "the signal did not land mid-run"
    again = run(tree, "-j", "2")
    assert again.returncode == 0, again.stderr
    assert snapshot(tree) == after
