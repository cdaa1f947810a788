"""What a person at a terminal sees: run a hipport command under a
pseudo-terminal (stdout and stderr both a TTY, as in an interactive shell)
and measure the time to the first output, the total time and the lines
printed.

    python benchmarks/terminal.py [--pythonpath DIR] [--cache DIR] -- convert TREE -o OUT --force

``--pythonpath`` runs another checkout of hipport (a before/after
comparison); ``--cache`` points HIPPORT_CACHE_DIR somewhere (an empty folder
measures a first run).  Progress bars redraw one line in place: the lines
counted are the newline-terminated ones, what stays on the screen.
"""
from __future__ import annotations

import argparse
import os
import pty
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@dataclass(frozen=True)
class Seen:
    first_output: float  # seconds until the first byte reached the terminal
    total: float
    exit_code: int
    raw: bytes  # as written, escape sequences included

    @property
    def text(self) -> bytes:
        return _ANSI.sub(b"", self.raw)

    @property
    def lines(self) -> int:
        """Newline-terminated lines: what stays on the screen (a progress
        bar redraws one line in place)."""
        return self.text.replace(b"\r\n", b"\n").count(b"\n")


def run_in_terminal(argv: list[str], env: dict[str, str], columns: int = 120) -> Seen:
    """Runs ``argv`` with stdout and stderr on one pseudo-terminal of
    ``columns`` columns; stdin is /dev/null."""
    main, secondary = pty.openpty()
    os.set_blocking(main, False)
    env = {"TERM": "xterm-256color", **env, "COLUMNS": str(columns), "LINES": "40"}
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=secondary, stderr=secondary,
                            env=env, close_fds=True)
    os.close(secondary)
    chunks: list[bytes] = []
    first = None
    while True:
        ready, _, _ = select.select([main], [], [], 0.05)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: every process holding the terminal has closed it
            break
        if not chunk:
            break
        if first is None:
            first = time.perf_counter() - start
        chunks.append(chunk)
    code = proc.wait()
    total = time.perf_counter() - start
    os.close(main)
    return Seen(first if first is not None else total, total, code, b"".join(chunks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pythonpath", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--cache", type=Path, help="HIPPORT_CACHE_DIR for the run")
    parser.add_argument("--show", action="store_true", help="print what the terminal showed")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    args = options.args[1:] if options.args[:1] == ["--"] else options.args
    env = dict(os.environ, PYTHONPATH=str(options.pythonpath))
    env.pop("NO_COLOR", None)
    if options.cache is not None:
        env["HIPPORT_CACHE_DIR"] = str(options.cache)
    seen = run_in_terminal([sys.executable, "-m", "hipport", *args], env)
    if options.show:
        sys.stdout.write(seen.text.decode("utf-8", "replace"))
    print(f"first output after {seen.first_output:.2f} s, done after {seen.total:.2f} s, "
          f"{seen.lines} lines, exit {seen.exit_code}")


if __name__ == "__main__":
    main()
