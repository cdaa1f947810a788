"""Worker processes for a run over many files, and how they stop.

The main process owns the result cache and the order of results: it answers
unchanged files itself, sends the others to the workers in chunks (a bounded
window of them in flight, so memory stays flat), and yields every result in
job order.  Workers fork from the main process after the catalogue and the
compiled queries are loaded, so they inherit both.

Stopping: a worker never stops in the middle of a file (each write is
atomic anyway, but a half-finished chunk would leave the parent waiting).
Ctrl-C and SIGTERM -- to the process group, from the pool when it breaks, or
from the kernel when the parent dies (``PR_SET_PDEATHSIG``) -- make a busy
worker finish its file and exit, an idle one exit at once; the parent's
``stop`` event ends a chunk between two files.  The workers fork with both
signals blocked (none is missed or lands in multiprocessing's start-up), the
shutdown holds them back, and a worker left idle after it is killed."""
from __future__ import annotations

import collections
import contextlib
import os
import signal
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from hipport.cache import ResultCache
from hipport.converter import (
    Answer,
    Converter,
    Read,
    RunOptions,
    copied,
    decode_answer,
    encode_answer,
    file_result,
)
from hipport.deferred_signals import deferred_signals
from hipport.errors import HipportError
from hipport.jobs import FileResult, Job
from hipport.rules import warm_up

if TYPE_CHECKING:
    from concurrent.futures import Future

_Task = tuple[Job, "Read | None"]
_Wire = tuple[Any, ...]
# A chunk in flight: per job, its answer (a copy's result, or a cache hit)
# when the main process had one, and the future computing the others.
_Slot = tuple[list["FileResult | Answer | None"], "Future[list[_Wire]] | None"]


class WorkerStopped(HipportError):
    def __init__(self) -> None:
        super().__init__("a worker process was stopped (killed or terminated by a signal); "
                         "the run stopped: every file written so far is complete, the "
                         "others are unchanged")


def run_parallel(jobs: Sequence[Job], options: RunOptions, workers: int, local: Converter,
                 cache: ResultCache | None,
                 lookups: ResultCache | None) -> Iterator[FileResult]:
    # Imported here: a run on a few files (a pre-commit hook) never needs them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(1, min(32, len(jobs) // (workers * 8)))
    window: collections.deque[_Slot] = collections.deque()
    stop = context.Event()
    others = set(multiprocessing.active_children())  # a library caller's own
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(options, os.getpid(), stop))
    warm = False
    try:
        for start in range(0, len(jobs), size):
            chunk = jobs[start:start + size]
            known: list[FileResult | Answer | None] = []
            tasks: list[_Task] = []
            for job in chunk:
                if not job.convert:
                    known.append(copied(job, options))
                    continue
                found = local.cached(job, lookups) if lookups is not None else None
                if isinstance(found, Answer):
                    known.append(found)
                else:
                    known.append(None)
                    tasks.append((job, found))
            # Workers fork at the first submission and inherit the loaded
            # catalogue and the compiled queries (a run of cache hits needs
            # neither).
            forking = bool(tasks) and not warm
            if forking:
                warm_up()
                warm = True
            with _held_while_forking(forking):
                future = pool.submit(_run_chunk, tasks) if tasks else None
            window.append((known, future))
            while len(window) > 4 * workers:
                yield from _drain(window.popleft(), cache)
        while window:
            yield from _drain(window.popleft(), cache)
    except BrokenProcessPool:
        raise WorkerStopped() from None
    finally:
        # Ctrl-C, SIGTERM, an error or an abandoned generator: chunks not
        # started are cancelled, running ones end after their current file.
        # A second Ctrl-C must not cut this short: it would leave workers
        # behind, and the interpreter's exit waiting for them.
        with deferred_signals():
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            _end_idle_workers([p for p in multiprocessing.active_children() if p not in others])


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def _held_while_forking(forking: bool) -> Iterator[None]:
    """SIGINT and SIGTERM blocked while the pool forks its workers: a child
    inherits the block, so a Ctrl-C cannot reach it before its own handler
    is in place (the parent's handler would raise KeyboardInterrupt in the
    middle of multiprocessing's start-up, with a traceback), nor be dropped
    by CPython in the instant after ``fork``.  ``_init_worker`` unblocks them
    once its handler is installed; the parent gets its own pending signal
    when the block ends here."""
    if not forking or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _end_idle_workers(left: list[Any]) -> None:
    """Workers still there after ``shutdown``: ones a Ctrl-C caught while the
    pool was forking them.  The signal sent to the process group is lost in
    a worker forked after it, or in the instant after ``fork`` (CPython
    clears the pending signals of a new child), and a pool interrupted
    before its manager thread started never tells its workers to exit: such
    a worker waits for work forever, and the interpreter's exit waits for
    it.  Every worker that had work has ended by now (``shutdown`` waited
    for it), so these never had any: SIGKILL, which cannot be lost, ends
    them with nothing to leave half done."""
    for process in left:
        process.kill()
    for process in left:
        process.join(10)


def _drain(slot: _Slot, cache: ResultCache | None) -> Iterator[FileResult]:
    known, future = slot
    computed = future.result() if future is not None else []
    if len(computed) != sum(k is None for k in known):
        raise WorkerStopped()  # it was asked to stop in the middle of the chunk
    answers = iter(computed)
    for item in known:
        if isinstance(item, FileResult):
            yield item
        elif item is not None:
            yield file_result(item, b"", cache)
        else:
            answer, blob = decode_answer(next(answers))
            yield file_result(answer, blob, cache)


class _WorkerState:
    def __init__(self, parent: int, stop: Any) -> None:
        self.parent = parent
        self.stop = stop
        self.busy = False
        self.signalled = False

    def on_signal(self, signum: int, frame: Any) -> None:
        if not self.busy:
            os._exit(128 + signum)
        self.signalled = True

    def should_stop(self) -> bool:
        if self.signalled:
            # No answer: the parent may be gone, or its pool broken and no
            # longer reading (a large answer would block this process forever).
            os._exit(128 + signal.SIGTERM)
        return bool(self.stop.is_set())


_converter: Converter | None = None
_state: _WorkerState | None = None


def _init_worker(options: RunOptions, parent: int, stop: Any) -> None:
    global _converter, _state
    _state = _WorkerState(parent, stop)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _state.on_signal)
    if hasattr(signal, "pthread_sigmask"):  # blocked while forking (_held_while_forking)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(128 + signal.SIGTERM)
    _converter = Converter(options)


def _die_with_parent() -> None:
    """Linux: SIGTERM this worker when its parent ends, however it ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # elsewhere the parent's stop event and its pool end the workers


def _run_chunk(tasks: Sequence[_Task]) -> list[_Wire]:
    assert _converter is not None and _state is not None
    answers: list[_Wire] = []
    for job, read in tasks:
        if _state.should_stop():
            break  # a short answer: the parent knows the run is stopping
        _state.busy = True
        try:
            answers.append(encode_answer(_converter.answer(job, read)))
        finally:
            _state.busy = False
    _state.should_stop()
    return answers
