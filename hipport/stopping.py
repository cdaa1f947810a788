"""Long work in a worker thread that a stopping run must not wait for.

Python runs a signal handler in the main thread only.  When Ctrl-C or
SIGTERM arrives while worker threads read build logs, the main thread stops
the programs they run and then waits for the threads to finish
(``ThreadPoolExecutor`` joins them, and so does the interpreter at exit): a
thread still reading a 400,000-line log keeps the run alive for as long as
that takes.  Such work takes the run's ``Event`` and checks it between two
lines (a few tens of nanoseconds): once set, it raises ``Stopped``, which
nobody reads, since the run is ending with the interrupt or error that set
it."""
from __future__ import annotations

from threading import Event


class Stopped(Exception):
    """The run this work belongs to is being stopped."""


def raise_if_stopped(stop: Event | None) -> None:
    if stop is not None and stop.is_set():
        raise Stopped
