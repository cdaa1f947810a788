"""One `hipport check`: which lines count, which files to read (the index
for ``--staged``), the shared pipeline in dry-run mode, then the verdict
against the policy and the baseline -- or a new baseline.  Nothing here
prints; ``hipport.commands.check`` does."""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterator

from hipport.artifacts import output_target
from hipport.check.baseline import Baseline, find_baseline, relative_key, write
from hipport.check.engine import CheckedFile, Verdict, evaluate
from hipport.check.gitdiff import (
    Change,
    changes_since,
    index_copies,
    staged_changes,
    unstaged_files,
)
from hipport.check.model import Violation
from hipport.check.policy import (
    CheckConfig,
    FailurePolicy,
    Policy,
    load_check_config,
    parse_prefixes,
)
from hipport.check.unused import unused_suppressions
from hipport.compat.strategy import CompatStrategy
from hipport.config import load_config
from hipport.delivery import Mode
from hipport.files import Selection, Skipped
from hipport.jobs import FileResult, Job
from hipport.pipeline import Plan, execute, plan
from hipport.request import FrontEnd, Request
from hipport.rewrite import RewriteStrategy
from hipport.settings import Settings
from hipport.strategy import Strategy
from hipport.table import load_table

# Below this many files, starting worker processes costs more than it saves.
IN_PROCESS_LIMIT = 200


@dataclass(frozen=True)
class CheckRequest:
    paths: tuple[Path, ...] = ()
    policy: str | None = None  # None: the configuration's (default no-unmapped)
    fail_on: tuple[str, ...] = ()  # replaces the configuration's fail-on when given
    ignore: tuple[str, ...] = ()  # added to the configuration's ignore
    staged: bool = False
    diff_base: str | None = None
    baseline: Path | None = None
    no_baseline: bool = False
    write_baseline: bool = False
    unused_suppressions: bool = False
    config: Path | None = None
    selection: Selection = Selection()
    rules: tuple[str, ...] = ()
    settings: Settings = Settings(stability_check=False)
    jobs: int = 0
    debug: bool = False
    front_end: FrontEnd = FrontEnd()
    compat_header: str = ""  # --policy compat: the header (default hip_compat.h)


@dataclass
class CheckRun:
    failing: FailurePolicy
    change: Change | None = None
    baseline: Baseline | None = None
    skipped: tuple[Skipped, ...] = ()
    verdict: Verdict | None = None  # None: nothing to check
    written: tuple[int, int] | None = None  # --write-baseline: (entries, dropped)
    results: list[FileResult] = field(default_factory=list)


def run_check(req: CheckRequest) -> CheckRun:
    cwd = Path.cwd()
    start = req.paths[0] if req.paths else cwd
    config = load_check_config(load_config(start, req.config))
    failing = failure_policy(req, config)
    change: Change | None = None
    if req.staged:
        change = staged_changes(cwd, req.paths)
    elif req.diff_base:
        change = changes_since(req.diff_base, cwd, req.paths)
    path = None if req.no_baseline else find_baseline(
        req.baseline, config, start, change, req.write_baseline)
    if req.write_baseline and path is not None:  # never over code (hard links: below)
        output_target(path, "baseline", req.paths, req.selection)
    # Read before the analysis: a damaged baseline fails fast.
    old = Baseline.load(path) if path is not None else None
    targets = (changed_files(change, req.paths, req.selection) if change is not None
               else list(req.paths))
    run = CheckRun(failing, change, old)
    if not targets:
        return run
    strategy: Strategy = RewriteStrategy()
    if failing.policy is Policy.COMPAT:
        # --compat-header is relative to the current folder (a hook's files
        # change from commit to commit); without it, the tree's header is
        # found from the first file checked (hipport.compat.place).
        strategy = CompatStrategy(header=os.path.abspath(req.compat_header)
                                  if req.compat_header else "")
    planned = plan(Request(tuple(targets), Mode.DRY_RUN, req.settings, req.selection,
                           req.front_end, req.rules, req.jobs,
                           in_process_up_to=IN_PROCESS_LIMIT, debug=req.debug,
                           strategy=strategy))
    run.skipped = planned.skipped
    if req.write_baseline and old is not None:
        output_target(old.path, "baseline", tuple(targets), req.selection, planned.jobs)
    checked = {job.display: CheckedFile(job.display, job.source, job.source)
               for job in planned.jobs}
    with _staged_copies(planned, checked, change if req.staged else None) as (planned, checked):
        run.results = execute(planned).results
        root = old.root if old is not None else cwd
        added = change.added if change is not None else None
        if req.write_baseline:
            assert old is not None
            run.verdict = evaluate(run.results, checked, failing, None, old.root, None)
            keys = {relative_key(f.path, old.root) for f in checked.values()}
            run.written = write(old, run.verdict.found, keys)
            return run
        run.verdict = evaluate(run.results, checked, failing, old, root, added)
        if req.unused_suppressions or config.report_unused_suppressions:
            run.verdict.new.extend(_unused(run.results, checked, planned, added))
            run.verdict.new.sort(key=lambda v: (v.path, v.line, v.column, v.code))
    return run


def failure_policy(req: CheckRequest, config: CheckConfig) -> FailurePolicy:
    base = config.failing
    policy = Policy(req.policy) if req.policy else base.policy
    fail_on = parse_prefixes(req.fail_on, "--fail-on") if req.fail_on else base.fail_on
    ignore = base.ignore + parse_prefixes(req.ignore, "--ignore")
    return FailurePolicy(policy, fail_on, ignore)


def changed_files(change: Change, paths: tuple[Path, ...], selection: Selection) -> list[Path]:
    """Files the diff adds lines to: those named on the command line, and
    the selected sources under the named folders (or the whole repository)."""
    named = {Path(os.path.abspath(p)) for p in paths if not p.is_dir()}
    out = []
    for path, lines in sorted(change.added.items()):
        if not lines or not path.is_file():
            continue
        rel = path.relative_to(change.root).as_posix()
        if path in named or selection.selects(rel):
            out.append(path)
    return out


@contextlib.contextmanager
def _staged_copies(planned: Plan, checked: dict[str, CheckedFile], change: Change | None
                   ) -> Iterator[tuple[Plan, dict[str, CheckedFile]]]:
    """With --staged, check what will be committed: files whose working copy
    has unstaged edits are read from the index instead (pre-commit stashes
    those edits itself, so under pre-commit this finds nothing to do).  The
    copies are removed when the check ends."""
    dirty = unstaged_files(change.root) if change is not None else set()
    wanted = [job.source for job in planned.jobs if job.source in dirty]
    if change is None or not wanted:
        yield planned, checked
        return
    folder, copies = index_copies(change.root, wanted)
    with folder:
        jobs = tuple(replace(job, source=copies.get(job.source, job.source))
                     for job in planned.jobs)
        yield (replace(planned, jobs=jobs),
               {display: replace(file, source=copies.get(file.path, file.path))
                for display, file in checked.items()})


def _unused(results: list[FileResult], checked: dict[str, CheckedFile], planned: Plan,
            added: dict[Path, frozenset[int]] | None) -> list[Violation]:
    """`// hipport: ignore` comments that suppress nothing (on added lines)."""
    options = planned.options
    out: list[Violation] = []
    table = backend = None
    for result in results:
        file = checked.get(result.display)
        if file is None:
            continue
        try:
            data = file.source.read_bytes()
        except OSError:
            continue
        if b"hipport:" not in data:
            continue
        if table is None or backend is None:
            table = load_table(options.request.rules).in_mode(options.settings.roc)
            backend = options.request.front_end.backend()
        lines = None if added is None else added.get(file.path, frozenset())
        out.extend(v for v in unused_suppressions(result.display, data, backend, table,
                                                  options.settings, file.path)
                   if lines is None or v.line in lines)
    return out


__all__ = ["CheckRequest", "CheckRun", "Job", "run_check"]
