"""Running a conversion over many files: one job per file, results streamed
to disk as they come, one process per core when asked."""
from __future__ import annotations

import difflib
import functools
import multiprocessing
import enum
import os
import signal
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from hipport.buildfiles import DEFAULT_OFFLOAD_ARCH, BuildOptions, convert_build_file
from hipport import __version__
from hipport.cache import ResultCache
from hipport.convert import ConversionResult, convert_bytes
from hipport.findings import Finding, LocatedFinding
from hipport.parse import get_backend
from hipport.parse.model import Backend
from hipport.rules import warm_up
from hipport.score import FileStats, RunStats
from hipport.settings import Settings
from hipport.source import Location
from hipport.table import MappingTable, load_table
from hipport.writing import copy_file, write_atomic


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


class _Worker:
    """Per-process state: the table and parser are built once per process."""

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.table: MappingTable = load_table(options.rules)
        self.backend: Backend = get_backend(options.backend, **dict(options.backend_options))

    def run(self, job: Job) -> FileResult:
        try:
            return self._run(job)
        except Exception as exc:  # one file's crash must not stop the batch
            reason = f"{type(exc).__name__}: {exc}"
            if self.options.debug:
                reason += "\n" + traceback.format_exc()
            finding = Finding("HP006", f"internal error: {reason}", 0, 0)
            located = LocatedFinding(finding, Location(1, 1), Location(1, 1), False)
            return FileResult(job.display, Outcome.FAILED, (located,), error=reason)

    def _run(self, job: Job) -> FileResult:
        mode = self.options.mode
        if not job.convert:
            if job.target is not None:
                copy_file(job.source, job.target)
            return FileResult(job.display, Outcome.SKIPPED, error="not a source file; copied")
        try:
            data = job.source.read_bytes()
        except OSError as exc:
            finding = Finding("HP002", f"cannot read: {exc.strerror}", 0, 0)
            located = LocatedFinding(finding, Location(1, 1), Location(1, 1), False)
            return FileResult(job.display, Outcome.FAILED, (located,), error=str(exc.strerror))
        result = self._convert(job, data)
        outcome = _outcome(result)
        diff = ""
        if mode is Mode.DIFF and result.changed:
            diff = unified_diff(result.original, result.output, job.display)
        elif mode is Mode.IN_PLACE and result.changed and job.target is not None:
            write_atomic(job.target, result.output, backup=self.options.backup)
        elif mode is Mode.MIRROR and job.target is not None:
            if result.changed:
                write_atomic(job.target, result.output, like=job.source, durable=False)
            else:
                copy_file(job.source, job.target)
        return FileResult(job.display, outcome, result.findings, result.stats,
                          result.declared, diff)


    def _convert(self, job: Job, data: bytes) -> ConversionResult:
        cache = self.cache
        key = cache.key(data, job.build_kind or "source") if cache is not None else ""
        cached = cache.get(key, data) if cache is not None else None
        if cached is not None:
            return cached
        if job.build_kind is not None:
            build = BuildOptions(self.options.offload_arch, self.options.settings)
            result = convert_build_file(data, job.build_kind, build)
        else:
            result = convert_bytes(data, self.backend, self.table, self.options.settings,
                                   job.source)
        if cache is not None:
            cache.put(key, result)
        return result

    @functools.cached_property
    def cache(self) -> ResultCache | None:
        # The semantic front end also depends on headers and compile flags
        # outside the file: its results are not cached.
        if not self.options.cache or self.options.backend != "syntax":
            return None
        context = "|".join((__version__, self.table.digest, repr(self.options.settings),
                            repr(self.options.offload_arch)))
        return ResultCache(context)


def _outcome(result: ConversionResult) -> Outcome:
    if result.failed and any(f.code == "HP002" for f in result.findings) and not result.changed:
        return Outcome.SKIPPED
    if result.failed:
        return Outcome.FAILED
    return Outcome.CONVERTED if result.changed else Outcome.UNCHANGED


def unified_diff(before: bytes, after: bytes, name: str) -> str:
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


def _run_in_worker(job: Job) -> FileResult:
    assert _worker is not None
    return _worker.run(job)


def run_jobs(jobs: Sequence[Job], options: RunOptions, workers: int = 1) -> Iterator[FileResult]:
    """Results in job order.  The table is loaded (and validated) up front so
    configuration errors surface before any file is touched."""
    local = _Worker(options)
    if workers <= 1 or len(jobs) < 2 * workers:
        for job in jobs:
            yield local.run(job)
        return
    # fork (where available) lets workers inherit the loaded catalogue and the
    # compiled queries.
    warm_up()
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                             initargs=(options,)) as pool:
        yield from pool.map(_run_in_worker, jobs, chunksize=max(1, min(32, len(jobs) // (workers * 8))))


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
