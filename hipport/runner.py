"""Running a conversion over many files: one job per file, each converted,
delivered (written, diffed) and answered the same way, in this process or
in worker processes (``hipport.pool``), with unchanged files answered from
the result cache (``hipport.cache``)."""
from __future__ import annotations

import enum
import functools
import os
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from hipport import __version__
from hipport.buildfiles import DEFAULT_OFFLOAD_ARCH, BuildOptions, convert_build_file
from hipport.cache import Entry, ResultCache, as_result, decode, encode
from hipport.cachedir import code_digest
from hipport.codes import CODES
from hipport.convert import ConversionResult, convert_bytes
from hipport.delivery import Delivered, Destination, Mode, WriteFailed, copy, deliver
from hipport.diagnostics.model import FileEffect, Ledger
from hipport.findings import Finding, LocatedFinding
from hipport.parse import get_backend
from hipport.parse.model import Backend
from hipport.replace import Identity, read_source
from hipport.score import FileStats, RunStats
from hipport.settings import Settings
from hipport.source import Location
from hipport.table import MappingTable, load_table

__all__ = ["FileResult", "Job", "Mode", "Outcome", "RunOptions", "WriteFailed",
           "default_workers", "drop_project_declared", "run_batch", "run_jobs", "tally"]


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

    @property
    def kind(self) -> str:
        return self.build_kind or "source"


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

    @property
    def destination(self) -> Destination:
        return Destination(self.mode, self.output, self.backup, self.force)


@dataclass(frozen=True)
class Read:
    """A source's bytes, and which file they came from."""

    data: bytes
    identity: Identity


@dataclass(frozen=True)
class Answer:
    """One file's answer, whichever process computed it: the conversion
    (``entry``) and what delivering it did, or a failure, or the reason the
    whole run must stop."""

    display: str
    entry: Entry | None = None
    key: str = ""  # cache key of the bytes converted; "" when not to be cached
    delivered: Delivered = Delivered()
    failure: FileResult | None = None
    fatal: str = ""


class Converter:
    """What converting needs, built once per process: the table, the front
    end and the cache keys."""

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.table: MappingTable = load_table(options.rules)
        self.backend: Backend = get_backend(options.backend, **dict(options.backend_options))

    def answer(self, job: Job, read: Read | None = None) -> Answer:
        """Convert ``job`` (``read``: its bytes, when already read) and deliver
        the result.  Never raises for one file's trouble."""
        try:
            return self._answer(job, read)
        except WriteFailed as exc:
            return Answer(job.display, fatal=exc.reason)
        except Exception as exc:  # one file's crash must not stop the batch
            reason = f"{type(exc).__name__}: {exc}"
            if self.options.debug:
                reason += "\n" + traceback.format_exc()
            return Answer(job.display,
                          failure=failure(job.display, "HP006", f"internal error: {reason}",
                                          reason))

    def _answer(self, job: Job, read: Read | None) -> Answer:
        if read is None:
            try:
                read = Read(*read_source(job.source))
            except OSError as exc:
                reason = str(exc.strerror)
                return Answer(job.display, failure=failure(job.display, "HP002",
                                                           f"cannot read: {reason}", reason))
        if job.build_kind is not None:
            build = BuildOptions(self.options.offload_arch, self.options.settings)
            result = convert_build_file(read.data, job.build_kind, build)
        else:
            result = convert_bytes(read.data, self.backend, self.table, self.options.settings,
                                   job.source)
        keys = self.cache_keys
        key = keys.key(read.data, job.kind) if keys is not None else ""
        return self.delivered(job, result, read.identity, key)

    def delivered(self, job: Job, result: ConversionResult, identity: Identity,
                  key: str = "") -> Answer:
        done = deliver(self.options.destination, job.source, job.display, job.target, result,
                       identity)
        return Answer(job.display, Entry.of(result), key, done)

    def cached(self, job: Job, cache: ResultCache) -> Answer | Read | None:
        """``job`` answered from the cache; on a miss, its bytes (read once,
        handed on to whoever converts it); None when it cannot be read."""
        try:
            read = Read(*read_source(job.source))
        except OSError:
            return None  # the conversion reports it
        entry = cache.get(cache.key(read.data, job.kind))
        if entry is None:
            return read
        try:
            return self.delivered(job, as_result(entry, read.data), read.identity)
        except WriteFailed as exc:
            return Answer(job.display, fatal=exc.reason)

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
        return "|".join((__version__, code_digest(), self.table.digest,
                         repr(self.options.settings), repr(self.options.offload_arch)))


def failure(display: str, code: str, message: str, reason: str) -> FileResult:
    located = LocatedFinding(Finding(code, message, 0, 0), Location(1, 1), Location(1, 1), False)
    return FileResult(display, Outcome.FAILED, (located,), error=reason)


def outcome_of(entry: Entry) -> Outcome:
    effect = entry.effect
    if effect is FileEffect.FAILED:
        return Outcome.FAILED
    if effect is FileEffect.SKIPPED:
        return Outcome.SKIPPED
    return Outcome.CONVERTED if entry.output is not None else Outcome.UNCHANGED


def file_result(answer: Answer, blob: bytes, cache: ResultCache | None) -> FileResult:
    """The one place an answer becomes a result: the run stops on a fatal
    answer, a conversion is cached (``blob``: its encoding, when already
    made) and then reported as delivered."""
    if answer.fatal:
        raise WriteFailed(answer.fatal)
    if answer.failure is not None:
        return answer.failure
    entry = answer.entry
    assert entry is not None
    if answer.key and cache is not None:
        cache.put(answer.key, blob or encode(entry))
    delivered = answer.delivered
    if delivered.refused is not None:
        return failure(answer.display, delivered.refused.code, delivered.refused.message,
                       delivered.refused.message)
    return FileResult(answer.display, outcome_of(entry), entry.findings + delivered.notes,
                      entry.stats, entry.declared, delivered.diff)


def copied(job: Job, options: RunOptions) -> FileResult:
    """A file that is mirrored, not converted (copied by the main process)."""
    if job.target is not None:
        copy(options.destination, job.source, job.target)
    return FileResult(job.display, Outcome.SKIPPED, error="not a source file; copied")


def run_jobs(jobs: Sequence[Job], options: RunOptions, workers: int = 1) -> Iterator[FileResult]:
    """Results in job order, streamed.  The table is loaded (and validated) up
    front so configuration errors surface before any file is touched.

    The main process owns the result cache: it answers unchanged files itself
    (a re-run never starts a worker) and has the others converted, here or
    by worker processes."""
    local = Converter(options)
    cache = local.new_cache()
    # Entries are still written on a first run; only the lookups are skipped.
    lookups = cache if cache is not None and not cache.is_empty() else None
    try:
        if workers <= 1 or len(jobs) < 2 * workers:
            for job in jobs:
                if not job.convert:
                    yield copied(job, options)
                    continue
                found = local.cached(job, lookups) if lookups is not None else None
                answer = found if isinstance(found, Answer) else local.answer(job, found)
                yield file_result(answer, b"", cache)
        else:
            from hipport.pool import run_parallel

            yield from run_parallel(jobs, options, workers, local, cache, lookups)
    finally:
        if cache is not None:
            cache.close()


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


def decode_answer(wire: tuple[Any, ...]) -> tuple[Answer, bytes]:
    """An answer from a worker process (see ``hipport.pool``), and the
    encoded conversion it carried (reused as the cache entry)."""
    display, blob, key, delivered, fail, fatal = wire
    entry = decode(blob) if blob else None
    if blob and entry is None:  # cannot happen: the worker encoded it for us
        raise RuntimeError(f"{display}: a worker's result could not be read")
    return Answer(display, entry, key, delivered, fail, fatal), blob


def encode_answer(answer: Answer) -> tuple[Any, ...]:
    """An answer as a worker sends it: the conversion encoded once (plain
    tuples pickle three times faster than the dataclasses)."""
    blob = encode(answer.entry) if answer.entry is not None else b""
    return (answer.display, blob, answer.key, answer.delivered, answer.failure, answer.fatal)
