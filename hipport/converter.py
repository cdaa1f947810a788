"""Converting one job, in whichever process: the conversion (by the run's
strategy), its delivery (written, diffed) and the answer that becomes its
result, with unchanged files answered from the result cache
(``hipport.cache``)."""
from __future__ import annotations

import functools
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hipport.buildfiles import convert_build_file
from hipport.cache import Entry, ResultCache, as_result, decode, encode
from hipport.cachedir import code_digest
from hipport.convert import ConversionResult, unreadable_result
from hipport.delivery import Delivered, Destination, WriteFailed, copy, deliver
from hipport.diagnostics.model import FileEffect
from hipport.findings import Finding, LocatedFinding
from hipport.jobs import FileResult, Job, Outcome
from hipport.parse.model import Backend
from hipport.replace import Identity, read_source
from hipport.request import Request
from hipport.rewrite import RewriteStrategy
from hipport.settings import Settings
from hipport.source import Location
from hipport.strategy import Strategy
from hipport.table import MappingTable, load_table
from hipport.version import __version__


@dataclass(frozen=True)
class RunOptions:
    """What every process of a run needs: the request, and what planning
    resolved of it (``pipeline.plan``)."""

    request: Request
    output: Path | None = None  # mirror: the output root, resolved (nothing is written outside it)
    strategy: Strategy = RewriteStrategy()  # as planned (hipport.strategy)

    @property
    def settings(self) -> Settings:
        return self.request.settings

    @property
    def destination(self) -> Destination:
        r = self.request
        return Destination(r.mode, self.output, r.backup, r.force)


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
        self.table: MappingTable = load_table(options.request.rules).in_mode(
            options.settings.roc)
        self.backend: Backend = options.request.front_end.backend()

    def answer(self, job: Job, read: Read | None = None) -> Answer:
        """Convert ``job`` (``read``: its bytes, when already read) and deliver
        the result.  Never raises for one file's trouble."""
        try:
            return self._answer(job, read)
        except WriteFailed as exc:
            return Answer(job.display, fatal=exc.reason)
        except Exception as exc:  # one file's crash must not stop the batch
            reason = f"{type(exc).__name__}: {exc}"
            if self.options.request.debug:
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
        strategy, settings = self.options.strategy, self.options.settings
        if job.build_kind is not None:
            result = convert_build_file(read.data, job.build_kind, settings,
                                        strategy.build_findings)
        else:
            result = unreadable_result(read.data, settings) or strategy.convert_source(
                read.data, self.backend, self.table, settings, job.source)
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
        request = self.options.request
        if not request.cache or request.front_end.run_options()[0] != "syntax":
            return None
        return "|".join((__version__, code_digest(), self.table.digest,
                         repr(request.settings), repr(self.options.strategy)))


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
