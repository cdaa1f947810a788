"""Running a conversion over many files: one job per file, results streamed
to disk as they come, one process per core when asked."""
from __future__ import annotations

import collections
import contextlib
import enum
import functools
import os
import signal
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from hipport.buildfiles import DEFAULT_OFFLOAD_ARCH, BuildOptions, convert_build_file
from hipport import __version__
from hipport.cache import ResultCache, as_result, decode, encode
from hipport.codes import CODES
from hipport.convert import ConversionResult, convert_bytes
from hipport.diagnostics.model import FileEffect, Ledger
from hipport.errors import HipportError
from hipport.findings import Finding, LocatedFinding
from hipport.parse import get_backend
from hipport.parse.model import Backend
from hipport.rules import warm_up
from hipport.score import FileStats, RunStats
from hipport.settings import Settings
from hipport.source import Location
from hipport.table import MappingTable, load_table
from hipport.replace import Identity, NotReplaced, read_source, replace_source
from hipport.writing import (copy_file, make_parents, same_as_file, same_file_content,
                             write_atomic)

if TYPE_CHECKING:
    from concurrent.futures import Future


class Mode(enum.Enum):
    CHECK = "check"  # findings only
    DIFF = "diff"  # unified diff, nothing written
    IN_PLACE = "in-place"
    MIRROR = "mirror"  # write every file under an output directory


class Outcome(enum.Enum):
    CONVERTED = "converted"
    UNCHANGED = "unchanged"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Job:
    source: Path
    display: str  # path as shown to the user
    target: Path | None = None  # where to write (mirror / in-place)
    convert: bool = True  # False: only copy (mirror of a non-source file)
    build_kind: str | None = None  # "cmake" / "make": a build file (hipport.buildfiles)


@dataclass(frozen=True)
class FileResult:
    display: str
    outcome: Outcome
    findings: tuple[LocatedFinding, ...] = ()
    stats: FileStats = field(default_factory=FileStats)
    declared: frozenset[str] = frozenset()
    diff: str = ""
    error: str = ""  # a short reason when FAILED or SKIPPED


@dataclass(frozen=True)
class RunOptions:
    mode: Mode
    settings: Settings = Settings()
    rules: tuple[str, ...] = ()  # user mapping files
    backend: str = "syntax"
    # Keyword options of the front end (e.g. the semantic one's cuda_path).
    backend_options: tuple[tuple[str, Any], ...] = ()
    debug: bool = False
    offload_arch: tuple[str, ...] = DEFAULT_OFFLOAD_ARCH  # for build files
    cache: bool = True  # reuse results of unchanged files (hipport.cache)
    backup: str | None = None  # in-place: keep each replaced file as NAME + suffix
    force: bool = False  # in-place: rewrite read-only and hard-linked files too
    output: Path | None = None  # mirror: the output root (nothing is written outside it)


class WriteFailed(HipportError):
    """Writing an output failed (a full disk, a read-only folder): the run
    stops, since every later file would fail the same way."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}; the run stopped: every file written so far is complete, "
                         "the others are unchanged")


@dataclass(frozen=True)
class _Reply:
    """One file's answer.  From a worker process the conversion travels as
    ``blob``, pickled once -- the same bytes then become its cache entry;
    in the main process (and for copies, read errors, crashes) as ``result``."""
    display: str
    outcome: Outcome
    result: FileResult | None = None
    blob: bytes = b""  # hipport.cache.encode() of the conversion
    key: str = ""  # cache key of the bytes converted; "" when not to be cached
    diff: str = ""
    notes: tuple[LocatedFinding, ...] = ()  # added while delivering (a renamed backup)
    fatal: str = ""  # the run must stop: why


class _Worker:
    """Per-process state: the table and parser are built once per process."""

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.table: MappingTable = load_table(options.rules)
        self.backend: Backend = get_backend(options.backend, **dict(options.backend_options))

    def compute(self, job: Job, keep_blob: bool) -> _Reply:
        """Convert and deliver ``job``; ``keep_blob``: send the conversion as a
        pickled blob (the cache entry) rather than as a FileResult."""
        try:
            return self._compute(job, keep_blob)
        except WriteFailed as exc:
            return _Reply(job.display, Outcome.FAILED, fatal=exc.reason)
        except Exception as exc:  # one file's crash must not stop the batch
            return self._crashed(job, exc)

    def _crashed(self, job: Job, exc: Exception) -> _Reply:
        reason = f"{type(exc).__name__}: {exc}"
        if self.options.debug:
            reason += "\n" + traceback.format_exc()
        return _Reply(job.display, Outcome.FAILED,
                      _failure(job, "HP006", f"internal error: {reason}", reason))

    def _compute(self, job: Job, keep_blob: bool) -> _Reply:
        if not job.convert:
            if job.target is not None and not same_as_file(job.target, job.source):
                with self.writing(job.target):
                    copy_file(job.source, job.target)
            copied = FileResult(job.display, Outcome.SKIPPED, error="not a source file; copied")
            return _Reply(job.display, Outcome.SKIPPED, copied)
        try:
            data, identity = read_source(job.source)
        except OSError as exc:
            reason = str(exc.strerror)
            return _Reply(job.display, Outcome.FAILED,
                          _failure(job, "HP002", f"cannot read: {reason}", reason))
        if job.build_kind is not None:
            build = BuildOptions(self.options.offload_arch, self.options.settings)
            result = convert_build_file(data, job.build_kind, build)
        else:
            result = convert_bytes(data, self.backend, self.table, self.options.settings,
                                   job.source)
        keys = self.cache_keys
        key = keys.key(data, _kind(job)) if keys is not None else ""
        # Encoded before delivering: a crash while writing must not cache.
        blob = encode(result) if keep_blob or key else b""
        delivered = self.deliver(job, result, identity)
        if keep_blob and delivered.refused is None:
            return _Reply(job.display, _outcome(result), None, blob, key, delivered.diff,
                          delivered.notes)
        return _Reply(job.display, _outcome(result),
                      self.file_result(job, result, delivered), blob, key)

    def lookup(self, job: Job, cache: ResultCache) -> _Reply | None:
        """The cached conversion of ``job``, delivered; None on a miss."""
        if not job.convert:
            return self.compute(job, keep_blob=False)  # a copy: no worker needed
        try:
            data, identity = read_source(job.source)
        except OSError:
            return None  # the conversion reports it
        entry = cache.get(cache.key(data, _kind(job)))
        if entry is None:
            return None
        result = as_result(entry, data)
        try:
            delivered = self.deliver(job, result, identity)
        except WriteFailed as exc:
            return _Reply(job.display, Outcome.FAILED, fatal=exc.reason)
        except Exception as exc:
            return self._crashed(job, exc)
        return _Reply(job.display, _outcome(result), self.file_result(job, result, delivered))

    def file_result(self, job: Job, result: ConversionResult, delivered: Delivered) -> FileResult:
        if delivered.refused is not None:
            code, message = delivered.refused
            return _failure(job, code, message, message)
        return FileResult(job.display, _outcome(result), result.findings + delivered.notes,
                          result.stats, result.declared, delivered.diff)

    def deliver(self, job: Job, result: ConversionResult, identity: Identity) -> Delivered:
        """Write (or diff) the conversion as the mode says."""
        mode = self.options.mode
        if mode is Mode.DIFF and result.changed:
            return Delivered(unified_diff(result.original, result.output, job.display))
        if mode is Mode.IN_PLACE and result.changed and job.target is not None:
            return self._replace(job.target, result, identity)
        if mode is Mode.MIRROR and job.target is not None:
            # A re-run into the same folder rewrites nothing that is already right.
            if result.changed:
                if not same_file_content(job.target, result.output, like=job.source):
                    with self.writing(job.target):
                        write_atomic(job.target, result.output, like=job.source, durable=False)
            elif not same_file_content(job.target, result.original, like=job.source):
                with self.writing(job.target):
                    copy_file(job.source, job.target)
        return Delivered()

    def _replace(self, target: Path, result: ConversionResult, identity: Identity) -> Delivered:
        try:
            with self.writing(target):
                done = replace_source(target, result.output, original=result.original,
                                      expected=identity, backup=self.options.backup,
                                      force=self.options.force)
        except NotReplaced as exc:
            return Delivered(refused=(exc.code, exc.message))
        if done.backup_renamed and done.backup is not None:
            taken = target.name + (self.options.backup or "")
            note = Finding("HP010", f"{taken} already exists; the original was kept as "
                           f"{done.backup.name}", 0, 0)
            return Delivered(notes=(LocatedFinding(note, Location(1, 1), Location(1, 1),
                                                   False),))
        return Delivered()

    @contextlib.contextmanager
    def writing(self, target: Path) -> Iterator[None]:
        """Any error writing ``target`` stops the run (``WriteFailed``); its
        folders are made first, never through a symbolic link."""
        try:
            root = self.options.output
            if root is not None and target.is_relative_to(root):
                make_parents(target, root)
            elif not target.parent.is_dir():
                target.parent.mkdir(parents=True, exist_ok=True)
            yield
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise WriteFailed(f"cannot write {target}: {reason}") from None

    def new_cache(self) -> ResultCache | None:
        return ResultCache(self._cache_context) if self._cache_context is not None else None

    @functools.cached_property
    def cache_keys(self) -> ResultCache | None:
        """Computes keys only (worker processes never open the database)."""
        return self.new_cache()

    @functools.cached_property
    def _cache_context(self) -> str | None:
        # The semantic front end also depends on headers and compile flags
        # outside the file: its results are not cached.
        if not self.options.cache or self.options.backend != "syntax":
            return None
        return "|".join((__version__, self.table.digest, repr(self.options.settings),
                         repr(self.options.offload_arch)))


@dataclass(frozen=True)
class Delivered:
    diff: str = ""
    notes: tuple[LocatedFinding, ...] = ()
    refused: tuple[str, str] | None = None  # (code, message): the file was left as it is


def _kind(job: Job) -> str:
    return job.build_kind or "source"


def _failure(job: Job, code: str, message: str, reason: str) -> FileResult:
    located = LocatedFinding(Finding(code, message, 0, 0), Location(1, 1), Location(1, 1), False)
    return FileResult(job.display, Outcome.FAILED, (located,), error=reason)


def _outcome(result: ConversionResult) -> Outcome:
    effect = result.effect
    if effect is FileEffect.FAILED:
        return Outcome.FAILED
    if effect is FileEffect.SKIPPED:
        return Outcome.SKIPPED
    return Outcome.CONVERTED if result.changed else Outcome.UNCHANGED


def unified_diff(before: bytes, after: bytes, name: str) -> str:
    import difflib

    a = before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    b = after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


_worker: _Worker | None = None


class _WorkerState:
    """A worker's answer to signals: never stop in the middle of a file.

    Ctrl-C and SIGTERM (sent to the process group, by the parent's pool when
    it breaks, or by the kernel when the parent dies: ``PR_SET_PDEATHSIG``)
    make a busy worker finish its file and exit; an idle one exits at once.
    The parent's ``stop`` event ends a chunk between two files, with a short
    answer the parent then ignores."""

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


_state: _WorkerState | None = None


def _init_worker(options: RunOptions, parent: int, stop: Any) -> None:
    global _worker, _state
    _state = _WorkerState(parent, stop)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _state.on_signal)
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(128 + signal.SIGTERM)
    _worker = _Worker(options)


def _die_with_parent() -> None:
    """Linux: SIGTERM this worker when its parent ends, however it ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # elsewhere the parent's stop event and its pool end the workers


def _run_chunk(jobs: Sequence[Job]) -> list[_Reply]:
    assert _worker is not None and _state is not None
    replies: list[_Reply] = []
    for job in jobs:
        if _state.should_stop():
            break  # a short answer: the parent knows the run is stopping
        _state.busy = True
        try:
            replies.append(_worker.compute(job, keep_blob=True))
        finally:
            _state.busy = False
    _state.should_stop()
    return replies


def _resolve(reply: _Reply, cache: ResultCache | None) -> FileResult:
    if reply.fatal:
        raise WriteFailed(reply.fatal)
    if reply.key and reply.blob and cache is not None:
        cache.put(reply.key, reply.blob)
    if reply.result is not None:
        return reply.result
    entry = decode(reply.blob)
    if entry is None:  # cannot happen: the worker pickled it for us
        raise RuntimeError(f"{reply.display}: a worker's result could not be read")
    return FileResult(reply.display, reply.outcome, entry.findings + reply.notes, entry.stats,
                      entry.declared, reply.diff)


def run_jobs(jobs: Sequence[Job], options: RunOptions, workers: int = 1) -> Iterator[FileResult]:
    """Results in job order, streamed.  The table is loaded (and validated) up
    front so configuration errors surface before any file is touched.

    The main process owns the result cache: it answers unchanged files itself
    (a re-run never starts a worker) and sends only the others to the workers."""
    local = _Worker(options)
    cache = local.new_cache()
    # Entries are still written on a first run; only the lookups are skipped.
    lookups = cache if cache is not None and not cache.is_empty() else None
    try:
        if workers <= 1 or len(jobs) < 2 * workers:
            for job in jobs:
                reply = local.lookup(job, lookups) if lookups is not None else None
                yield _resolve(reply or local.compute(job, keep_blob=False), cache)
        else:
            yield from _run_parallel(jobs, options, workers, local, cache, lookups)
    finally:
        if cache is not None:
            cache.close()


def _run_parallel(jobs: Sequence[Job], options: RunOptions, workers: int, local: _Worker,
                  cache: ResultCache | None,
                  lookups: ResultCache | None) -> Iterator[FileResult]:
    # Imported here: a run on a few files (a pre-commit hook) never needs them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(1, min(32, len(jobs) // (workers * 8)))
    # Chunks in flight, oldest first: the cached replies of a chunk and the
    # future computing its other jobs.  A bounded window keeps memory flat.
    window: collections.deque[tuple[list[_Reply | None], Future[list[_Reply]] | None]] = \
        collections.deque()
    stop = context.Event()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(options, os.getpid(), stop))
    warm = False
    try:
        for start in range(0, len(jobs), size):
            chunk = jobs[start:start + size]
            replies = [local.lookup(job, lookups) if lookups is not None else None
                       for job in chunk]
            missing = [job for job, reply in zip(chunk, replies) if reply is None]
            if missing and not warm:
                # Workers fork at the first submission and inherit the loaded
                # catalogue and the compiled queries (a run of cache hits
                # needs neither).
                warm_up()
                warm = True
            window.append((replies, pool.submit(_run_chunk, missing) if missing else None))
            while len(window) > 4 * workers:
                yield from _drain(window.popleft(), cache)
        while window:
            yield from _drain(window.popleft(), cache)
    except BrokenProcessPool:
        raise WorkerStopped() from None
    finally:
        # Ctrl-C, SIGTERM, an error or an abandoned generator: chunks not
        # started are cancelled, running ones end after their current file.
        stop.set()
        pool.shutdown(wait=True, cancel_futures=True)


class WorkerStopped(HipportError):
    def __init__(self) -> None:
        super().__init__("a worker process was stopped (killed or terminated by a signal); "
                         "the run stopped: every file written so far is complete, the "
                         "others are unchanged")


def _drain(slot: tuple[list[_Reply | None], Future[list[_Reply]] | None],
           cache: ResultCache | None) -> Iterator[FileResult]:
    replies, future = slot
    computed = future.result() if future is not None else []
    if len(computed) != sum(r is None for r in replies):
        raise WorkerStopped()  # it was asked to stop in the middle of the chunk
    answers = iter(computed)
    for reply in replies:
        yield _resolve(reply if reply is not None else next(answers), cache)


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else (os.cpu_count() or 1))


def drop_project_declared(results: Iterable[FileResult]) -> list[FileResult]:
    """Unmapped-name findings for names some file of the run declares itself
    (a project's own `CUDA_CHECK` macro, say) are not CUDA APIs: drop them."""
    items = list(results)
    declared: set[str] = set().union(*(r.declared for r in items)) if items else set()
    if not declared:
        return items
    out = []
    for r in items:
        kept = tuple(f for f in r.findings
                     if not (CODES[f.code].ledger is Ledger.UNMAPPED
                             and f.finding.cuda_name in declared))
        if len(kept) != len(r.findings):
            stats = replace(r.stats, refs_unconverted=r.stats.refs_unconverted
                            - (len(r.findings) - len(kept)))
            r = replace(r, findings=kept, stats=stats)
        out.append(r)
    return out


def tally(results: Iterable[FileResult]) -> RunStats:
    run = RunStats()
    for r in results:
        if r.outcome is Outcome.CONVERTED:
            run.files_converted += 1
        elif r.outcome is Outcome.UNCHANGED:
            run.files_unchanged += 1
        elif r.outcome is Outcome.FAILED:
            run.files_failed += 1
        elif r.stats.lines == 0:
            continue  # a mirrored non-source file
        else:
            run.files_skipped += 1
        run.add(r.stats)
    return run


def run_batch(jobs: Sequence[Job], options: RunOptions, workers: int = 1) -> list[FileResult]:
    """All results of a run, with findings resolved across the whole project."""
    return drop_project_declared(run_jobs(jobs, options, workers))
