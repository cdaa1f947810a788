"""Running a conversion over many files: one job per file, results streamed
to disk as they come, one process per core when asked."""
from __future__ import annotations

import collections
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
from hipport.convert import ConversionResult, convert_bytes
from hipport.findings import Finding, LocatedFinding
from hipport.parse import get_backend
from hipport.parse.model import Backend
from hipport.rules import warm_up
from hipport.score import FileStats, RunStats
from hipport.settings import Settings
from hipport.source import Location
from hipport.table import MappingTable, load_table
from hipport.writing import copy_file, same_as_file, same_file_content, write_atomic

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
                copy_file(job.source, job.target)
            copied = FileResult(job.display, Outcome.SKIPPED, error="not a source file; copied")
            return _Reply(job.display, Outcome.SKIPPED, copied)
        try:
            data = job.source.read_bytes()
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
        if keep_blob:
            return _Reply(job.display, _outcome(result), None, blob, key, self.deliver(job, result))
        return _Reply(job.display, _outcome(result), self.file_result(job, result), blob, key)

    def lookup(self, job: Job, cache: ResultCache) -> _Reply | None:
        """The cached conversion of ``job``, delivered; None on a miss."""
        if not job.convert:
            return self.compute(job, keep_blob=False)  # a copy: no worker needed
        try:
            data = job.source.read_bytes()
        except OSError:
            return None  # the conversion reports it
        entry = cache.get(cache.key(data, _kind(job)))
        if entry is None:
            return None
        result = as_result(entry, data)
        try:
            return _Reply(job.display, _outcome(result), self.file_result(job, result))
        except Exception as exc:  # e.g. the output folder is not writable
            return self._crashed(job, exc)

    def file_result(self, job: Job, result: ConversionResult) -> FileResult:
        diff = self.deliver(job, result)
        return FileResult(job.display, _outcome(result), result.findings, result.stats,
                          result.declared, diff)

    def deliver(self, job: Job, result: ConversionResult) -> str:
        """Write (or diff) the conversion as the mode says; the diff text."""
        mode = self.options.mode
        if mode is Mode.DIFF and result.changed:
            return unified_diff(result.original, result.output, job.display)
        if mode is Mode.IN_PLACE and result.changed and job.target is not None:
            write_atomic(job.target, result.output, backup=self.options.backup)
        elif mode is Mode.MIRROR and job.target is not None:
            # A re-run into the same folder rewrites nothing that is already right.
            if result.changed:
                if not same_file_content(job.target, result.output, like=job.source):
                    write_atomic(job.target, result.output, like=job.source, durable=False)
            elif not same_file_content(job.target, result.original, like=job.source):
                copy_file(job.source, job.target)
        return ""

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


def _kind(job: Job) -> str:
    return job.build_kind or "source"


def _failure(job: Job, code: str, message: str, reason: str) -> FileResult:
    located = LocatedFinding(Finding(code, message, 0, 0), Location(1, 1), Location(1, 1), False)
    return FileResult(job.display, Outcome.FAILED, (located,), error=reason)


def _outcome(result: ConversionResult) -> Outcome:
    if result.failed and any(f.code == "HP002" for f in result.findings) and not result.changed:
        return Outcome.SKIPPED
    if result.failed:
        return Outcome.FAILED
    return Outcome.CONVERTED if result.changed else Outcome.UNCHANGED


def unified_diff(before: bytes, after: bytes, name: str) -> str:
    import difflib

    a = before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    b = after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


_worker: _Worker | None = None


def _init_worker(options: RunOptions) -> None:
    global _worker
    # Ctrl-C is the parent's to handle: it cancels the jobs not started and
    # waits for the running ones, whose writes are atomic.  A worker killed
    # mid-job would only add a traceback and a broken pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker = _Worker(options)


def _run_chunk(jobs: Sequence[Job]) -> list[_Reply]:
    assert _worker is not None
    return [_worker.compute(job, keep_blob=True) for job in jobs]


def _resolve(reply: _Reply, cache: ResultCache | None) -> FileResult:
    if reply.key and reply.blob and cache is not None:
        cache.put(reply.key, reply.blob)
    if reply.result is not None:
        return reply.result
    entry = decode(reply.blob)
    if entry is None:  # cannot happen: the worker pickled it for us
        raise RuntimeError(f"{reply.display}: a worker's result could not be read")
    return FileResult(reply.display, reply.outcome, entry.findings, entry.stats, entry.declared,
                      reply.diff)


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

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    size = max(1, min(32, len(jobs) // (workers * 8)))
    # Chunks in flight, oldest first: the cached replies of a chunk and the
    # future computing its other jobs.  A bounded window keeps memory flat.
    window: collections.deque[tuple[list[_Reply | None], Future[list[_Reply]] | None]] = \
        collections.deque()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                               initargs=(options,))
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
    finally:
        # Ctrl-C or an abandoned generator: jobs not started are cancelled,
        # running ones finish (their writes are atomic).
        pool.shutdown(wait=True, cancel_futures=True)


def _drain(slot: tuple[list[_Reply | None], Future[list[_Reply]] | None],
           cache: ResultCache | None) -> Iterator[FileResult]:
    replies, future = slot
    computed = iter(future.result() if future is not None else ())
    for reply in replies:
        yield _resolve(reply if reply is not None else next(computed), cache)


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
                     if not (f.code == "HP900" and f.finding.cuda_name in declared))
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
