"""SIGKILL and Ctrl-C at random moments of an in-place run over many files:
every file is its original bytes or its complete conversion, never truncated
or mixed; a killed run's temporary files are recognisable and the next run
removes them; Ctrl-C leaves none."""
from __future__ import annotations

import random
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.safety.harness import classify, interrupt, make_tree, run, snapshot

pytestmark = pytest.mark.slow

FILES = 300
# Kills a parametrisation: each a copy of the tree, a killed run and a run that
# finishes the job (about 5 s on 2 cores); 6 land at least 2 mid-run.
ROUNDS = 6


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, dict[str, bytes], dict[str, bytes], float]:
    """The tree, its bytes, its fully converted bytes, and how long a run takes."""
    base = tmp_path_factory.mktemp("kill")
    root = base / "pristine"
    before = make_tree(root, FILES)
    converted = base / "converted"
    shutil.copytree(root, converted)
    start = time.monotonic()
    done = run(converted, "-j", "1")
    took = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    after = snapshot(converted)
    changed = sum(after[k] != v for k, v in before.items())
    assert changed >= FILES * 0.8  # the run has real work to interrupt
    return root, before, after, took


def _rounds(took: float, count: int, seed: int, first: float | None = None) -> list[float]:
    # Derandomised: the same delays every run, spread from 0.05 s (or from
    # ``first`` of the run: 0.25 skips its start-up, imports and catalogue,
    # before anything is written) to just past its end.
    rnd = random.Random(seed)
    low = 0.05 if first is None else took * first
    return sorted(rnd.uniform(low, took * 1.05) for _ in range(count))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigkill_never_leaves_a_half_written_file(pristine, tmp_path: Path, jobs: str):
    root, before, after, took = pristine
    mid_run = temporaries = 0
    for n, delay in enumerate(_rounds(took, ROUNDS, seed=int(jobs), first=0.25)):
        tree = tmp_path / f"round{n}" / "src"
        shutil.copytree(root, tree)
        killed = interrupt(tree, delay, signal.SIGKILL, "-j", jobs)
        state = classify(tree, before, after)
        mid_run += bool(state.original and state.converted)
        temporaries += state.temporary
        # The next run finishes the job and removes what the killed one left.
        again = run(tree, "-j", jobs)
        assert again.returncode == 0, again.stderr
        assert snapshot(tree) == after, f"round {n} (killed after {delay:.2f}s)"
        assert again.stderr.count("removed: temporary file left by an interrupted "
                                  "hipport run") == state.temporary
        print(f"-j {jobs} round {n}: killed after {delay:.2f}s (rc {killed.returncode}): "
              f"{state.converted} converted, {state.original} original, "
              f"{state.temporary} temporary")
    # Without kills that land mid-run the test would prove nothing.
    assert mid_run >= 2, f"only {mid_run} kills landed mid-run; run takes {took:.2f}s"
    print(f"-j {jobs}: {mid_run} of {ROUNDS} kills mid-run, {temporaries} temporary files left")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_no_partial_or_temporary_file(pristine, tmp_path: Path, jobs: str):
    root, before, after, took = pristine
    mid_run = 0
    for n, delay in enumerate(_rounds(took, 4, seed=10 + int(jobs))):
        tree = tmp_path / f"round{n}" / "src"
        shutil.copytree(root, tree)
        stopped = interrupt(tree, delay, signal.SIGINT, "-j", jobs)
        state = classify(tree, before, after)
        assert state.temporary == 0
        assert "Traceback" not in stopped.stderr, stopped.stderr
        if not re.search(r" files? converted, ", stopped.stderr):  # stopped before the summary
            # 130, or death by SIGINT itself (-2): once in CI at load 15, the run
            # said "interrupted" and then died of a KeyboardInterrupt raised while
            # it exited (a known, unfixed race); either way the shell sees Ctrl-C.
            assert stopped.returncode in (130, -signal.SIGINT), stopped.stderr
            assert "hipport: interrupted" in stopped.stderr
        mid_run += bool(state.original and state.converted)
    assert mid_run >= 1
