"""Ctrl-C while the worker pool is starting (a CI run hung on it): a worker
forked after the signal reached the process group never saw it, and a pool
interrupted before its manager thread started never tells it to exit, so it
waited for work forever and the interpreter's exit waited for it.  A Ctrl-C
that reaches a worker before its own handler is in place must not print a
traceback either."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import multiprocessing, os, signal, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from hipport.cli import main

    HOW = sys.argv.pop(2)
    launch = ProcessPoolExecutor._launch_processes

    def interrupted(self):  # the workers are forked, then Ctrl-C
        launch(self)
        if HOW == "group":  # to every process, as a terminal sends it
            os.kill(0, signal.SIGINT)
            time.sleep(1)
        raise KeyboardInterrupt

    ProcessPoolExecutor._launch_processes = interrupted
    if HOW == "twice":  # Ctrl-C again while the pool shuts down
        shutdown = ProcessPoolExecutor.shutdown

        def interrupted_shutdown(self, *args, **kwargs):
            os.kill(os.getpid(), signal.SIGINT)
            shutdown(self, *args, **kwargs)

        ProcessPoolExecutor.shutdown = interrupted_shutdown
    if HOW == "group":  # workers slow to start: the signal comes before their handler
        import hipport.pool
        initialize = hipport.pool._init_worker

        def slow(*args):
            time.sleep(0.5)
            initialize(*args)

        hipport.pool._init_worker = slow
    sys.argv = ["hipport", "convert", sys.argv[1], "--in-place", "-q", "--no-cache", "-j", "2"]
    try:
        code = main()
    finally:
        print("children:", len(multiprocessing.active_children()), file=sys.stderr)
    raise SystemExit(code)
""")


@pytest.mark.parametrize("how", ["parent", "group", "twice"])
def test_ctrl_c_while_the_pool_starts_leaves_no_worker_waiting(tmp_path: Path, how: str):
    src = tmp_path / "src"
    src.mkdir()
    original = b"void f(void *p) { cudaFree(p); }\n"
    for i in range(40):
        (src / f"k{i}.cu").write_bytes(original)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(src), how], cwd=REPO,
                          timeout=60, capture_output=True, text=True,
                          start_new_session=True)  # before: no exit, ever
    assert proc.returncode == 130, proc.stderr
    assert "children: 0" in proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert all((src / f"k{i}.cu").read_bytes() == original for i in range(40))
