"""Running a conversion over many files: each job converted and answered
(``hipport.converter``), in this process or in worker processes
(``hipport.pool``), results in job order."""
from __future__ import annotations

import os
from dataclasses import replace
from typing import Iterable, Iterator, Sequence

from hipport.codes import CODES
from hipport.converter import Answer, Converter, RunOptions, copied, file_result
from hipport.diagnostics.model import Ledger
from hipport.jobs import FileResult, Job, Outcome
from hipport.pool import run_parallel
from hipport.score import RunStats

__all__ = ["default_workers", "drop_project_declared", "run_batch", "run_jobs", "tally"]


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
        if r.generated:
            continue
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


