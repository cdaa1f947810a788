"""Ctrl-C and SIGTERM held back while a file is being written.

A write creates a temporary file, renames it over the target and, for an
in-place conversion, links and unlinks a second name for the original.  A
``KeyboardInterrupt`` raised between two of those steps (inside ``mkstemp``
after the file exists, after ``os.link`` but before its name is kept, after
the rename but before the held name is removed) leaves one of hipport's
temporary files behind, however careful the ``except`` clauses are: the
exception can land before the name reaches a variable they can see.

``deferred_signals()`` makes each such step sequence uninterruptible by the
signals a user, a supervisor or a closing terminal sends to stop a run: while
it is active a SIGINT, SIGTERM or SIGHUP is only remembered; when the outermost block ends, the
handler that was in place before is run for it (raising ``KeyboardInterrupt``
for the default SIGINT handler, ending the process for a default SIGTERM).
A write takes milliseconds, so the stop is not noticeably later.  SIGKILL
cannot be held back; what it leaves is recognisable and the next run removes
it (``hipport.writing.is_temporary``).

Python runs signal handlers in the main thread only, so outside it (a
library caller's worker thread) the block changes nothing."""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Callable, Iterator, Union

HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

_Handler = Union[Callable[[int, Any], Any], int, None]


class _State:
    depth = 0
    pending: list[int] = []
    previous: dict[int, _Handler] = {}


def _remember(signum: int, frame: Any) -> None:
    _State.pending.append(signum)


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back for the duration of the block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _State.depth == 0:
        _State.pending = []
        _State.previous = {signum: signal.signal(signum, _remember) for signum in HELD}
    _State.depth += 1
    try:
        yield
    finally:
        _State.depth -= 1
        if _State.depth == 0:
            previous, pending = _State.previous, _State.pending
            for signum, handler in previous.items():
                signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
            if pending:
                _deliver(pending[0], previous.get(pending[0]))


def _deliver(signum: int, handler: _Handler) -> None:
    """Act on a held signal as the handler in place before would have."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_IGN:
        return
    else:  # the default action: SIGINT's is a KeyboardInterrupt only under Python's handler
        signal.raise_signal(signum)
