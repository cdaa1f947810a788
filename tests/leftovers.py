"""Stand-in tools that start children of their own (``sleep``), and a look
at which of those children are still running after hipport returned."""
from __future__ import annotations

import time
from pathlib import Path


def sleepers(pids: Path, count: int = 3) -> str:
    """Shell lines that start ``count`` ``sleep 1000`` in the background,
    write their process ids to ``pids`` and wait for them."""
    lines = [f'sleep 1000 & echo $! >> "{pids}"' for _ in range(count)]
    return "\n".join([*lines, "wait"]) + "\n"


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie is dead


def survivors(pids: Path, grace: float = 3.0) -> list[int]:
    """The processes listed in ``pids`` still running after ``grace`` seconds
    at most (SIGKILL is delivered at once, but not synchronously)."""
    listed = [int(p) for p in pids.read_text().split()] if pids.exists() else []
    deadline = time.monotonic() + grace
    while True:
        alive = [p for p in listed if _running(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)
