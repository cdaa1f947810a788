"""`hipport check`: read files, write nothing, exit 1 when a new violation
remains.  Built for pre-commit: few files per call, so the analysis runs in
this process unless there are many files."""
from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import click

from hipport.check.baseline import (BASELINE_NAME, Baseline, relative_key,
                                    write)
from hipport.check.engine import CheckedFile, Verdict, evaluate
from hipport.check.gitdiff import (Change, GitError, changes_since, index_copies,
                                   repository_root, staged_changes, unstaged_files)
from hipport.check.model import Violation
from hipport.check.output import FORMATS, render
from hipport.check.policy import (CheckConfig, Policy, Selection, load_check_config,
                                  parse_prefixes)
from hipport.commands.common import FrontEnd, build_settings, collect_jobs, display_path
from hipport.config import load_config
from hipport.errors import UsageError
from hipport.files import Selection as FileSelection
from hipport.outputs import output_target
from hipport.runner import FileResult, Job, Mode, RunOptions, default_workers, run_batch
from hipport.score import UNREAD

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
    output_format: str = "text"
    config: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    rocm_version: str | None = None
    jobs: int = 0
    quiet: bool = False
    debug: bool = False
    build_files: bool = True
    front_end: FrontEnd = FrontEnd()


def _validate(req: CheckRequest) -> None:
    if req.output_format not in FORMATS:
        raise UsageError(f"unknown output format {req.output_format!r}; choose one of "
                         + ", ".join(FORMATS))
    if req.staged and req.diff_base:
        raise UsageError("--staged and --diff-base exclude each other")
    if req.write_baseline and (req.staged or req.diff_base):
        raise UsageError("--write-baseline records every violation of the files; it cannot "
                         "be combined with --staged or --diff-base")
    if req.no_baseline and (req.baseline or req.write_baseline):
        raise UsageError("--no-baseline cannot be combined with --baseline or "
                         "--write-baseline")
    if not req.paths and not (req.staged or req.diff_base):
        raise UsageError("name the FILES to check, or use --staged or --diff-base REV")


def _selection(req: CheckRequest, config: CheckConfig) -> Selection:
    base = config.selection
    policy = Policy(req.policy) if req.policy else base.policy
    fail_on = parse_prefixes(req.fail_on, "--fail-on") if req.fail_on else base.fail_on
    ignore = base.ignore + parse_prefixes(req.ignore, "--ignore")
    return Selection(policy, fail_on, ignore)


def run_check(req: CheckRequest) -> int:
    _validate(req)
    cwd = Path.cwd()
    start = req.paths[0] if req.paths else cwd
    config = load_check_config(load_config(start, req.config))
    selection = _selection(req, config)
    files = FileSelection(req.include, req.exclude, build_files=req.build_files)
    report_unused = req.unused_suppressions or config.report_unused_suppressions

    change: Change | None = None
    if req.staged:
        change = staged_changes(cwd, req.paths)
    elif req.diff_base:
        change = changes_since(req.diff_base, cwd, req.paths)
    path = _baseline_path(req, config, start, change, cwd)
    if req.write_baseline and path is not None:  # never over code (hard links: below)
        output_target(path, "baseline", req.paths, files)
    # Read before the analysis: a damaged baseline fails fast.
    old = _load_baseline(path)
    targets = _diff_targets(change, req.paths, files) if change is not None else list(req.paths)
    if not targets:
        render(req.output_format, [], sys.stdout)  # an empty document for json/sarif
        if not req.quiet:
            what = change.description if change is not None else "the input"
            click.echo(f"hipport check: no source lines added in {what}; nothing to check",
                       err=True)
        return 0

    with _Cleanup() as cleanup:
        jobs, skipped = collect_jobs(targets, Mode.DRY_RUN, files)
        if req.write_baseline and old is not None:
            output_target(old.path, "baseline", targets, files, jobs)
        checked = {job.display: CheckedFile(job.display, job.source, job.source)
                   for job in jobs}
        if req.staged and change is not None:
            jobs, checked = _read_from_index(change.root, jobs, checked, cleanup)
        if not req.quiet:
            for item in skipped:
                click.echo(f"hipport check: skipped {display_path(item.path)}: {item.reason}",
                           err=True)

        backend, backend_options = req.front_end.run_options()
        # Nothing is written, so the second conversion pass that guards writes is skipped.
        settings = build_settings(rocm_version=req.rocm_version, fast=True)
        options = RunOptions(Mode.DRY_RUN, settings, req.rules, backend, backend_options,
                             debug=req.debug)
        workers = req.jobs if req.jobs > 0 else (
            1 if len(jobs) <= IN_PROCESS_LIMIT else default_workers())
        results = run_batch(jobs, options, workers)

        root = old.root if old is not None else cwd
        added = change.added if change is not None else None
        if req.write_baseline:
            assert old is not None
            return _write_baseline(old, results, checked, selection, req.quiet)
        verdict = evaluate(results, checked, selection, old, root, added)
        if report_unused:
            verdict.new.extend(_unused(results, checked, options, added))
            verdict.new.sort(key=lambda v: (v.path, v.line, v.column, v.code))
        render(req.output_format, verdict.new, sys.stdout)
        sys.stdout.flush()
        if not req.quiet or verdict.failed:
            _summary(verdict, selection, old, change)
        return 1 if verdict.failed else 0


class _Cleanup:
    """Temporary folders (index copies) removed when the check ends."""

    def __init__(self) -> None:
        self.folders: list[tempfile.TemporaryDirectory[str]] = []

    def __enter__(self) -> _Cleanup:
        return self

    def __exit__(self, *exc: object) -> None:
        for folder in self.folders:
            folder.cleanup()


def _diff_targets(change: Change, paths: tuple[Path, ...],
                  files: FileSelection) -> list[Path]:
    """Files the diff adds lines to: those named on the command line, and
    the selected sources under the named folders (or the whole repository)."""
    named = {Path(os.path.abspath(p)) for p in paths if not p.is_dir()}
    out = []
    for path, lines in sorted(change.added.items()):
        if not lines or not path.is_file():
            continue
        rel = path.relative_to(change.root).as_posix()
        if path in named or files.selects(rel):
            out.append(path)
    return out


def _read_from_index(root: Path, jobs: list[Job], checked: dict[str, CheckedFile],
                     cleanup: _Cleanup) -> tuple[list[Job], dict[str, CheckedFile]]:
    """With --staged, check what will be committed: files whose working copy
    has unstaged edits are read from the index instead (pre-commit stashes
    those edits itself, so under pre-commit this finds nothing to do)."""
    dirty = unstaged_files(root)
    wanted = [job.source for job in jobs if job.source in dirty]
    if not wanted:
        return jobs, checked
    folder, copies = index_copies(root, wanted)
    cleanup.folders.append(folder)
    jobs = [replace(job, source=copies.get(job.source, job.source)) for job in jobs]
    checked = {display: replace(file, source=copies.get(file.path, file.path))
               for display, file in checked.items()}
    return jobs, checked


def _baseline_path(req: CheckRequest, config: CheckConfig, start: Path,
                   change: Change | None, cwd: Path) -> Path | None:
    """--baseline, else the configured one, else .hipport-baseline.json next to
    the configuration file, else the nearest one above the inputs.  When
    writing a new one without any of those: at the repository's top level."""
    if req.no_baseline:
        return None
    if req.baseline is not None:
        return Path(os.path.abspath(req.baseline))
    if config.baseline is not None:
        return Path(os.path.abspath(config.baseline))
    if config.root is not None:
        return config.root / BASELINE_NAME
    here = Path(os.path.abspath(start))
    here = here if here.is_dir() else here.parent
    for folder in (here, *here.parents):
        if (folder / BASELINE_NAME).is_file():
            return folder / BASELINE_NAME
    if not req.write_baseline:
        return None
    if change is not None:
        return change.root / BASELINE_NAME
    try:
        return repository_root(here, "--write-baseline") / BASELINE_NAME
    except GitError:
        return cwd / BASELINE_NAME


def _load_baseline(path: Path | None) -> Baseline | None:
    # A baseline hipport cannot read is an error even with --write-baseline:
    # rewriting it would drop the entries of every file not checked this time.
    return Baseline.load(path) if path is not None else None


def _write_baseline(old: Baseline, results: list[FileResult],
                    checked: dict[str, CheckedFile], selection: Selection,
                    quiet: bool) -> int:
    verdict = evaluate(results, checked, selection, None, old.root, None)
    keys = {relative_key(f.path, old.root) for f in checked.values()}
    written, dropped = write(old, verdict.found, keys)
    if not quiet:
        extra = f"; {dropped} entries of deleted files dropped" if dropped else ""
        click.echo(f"hipport check: wrote {display_path(old.path)}: {written} known "
                   f"violation{'s' if written != 1 else ''} ({selection.describe()}){extra}",
                   err=True)
    _problems(verdict)
    return 0


def _unused(results: list[FileResult], checked: dict[str, CheckedFile], options: RunOptions,
            added: dict[Path, frozenset[int]] | None) -> list[Violation]:
    from hipport.check.unused import unused_suppressions
    from hipport.parse import get_backend
    from hipport.table import load_table

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
            table = load_table(options.rules)
            backend = get_backend(options.backend, **dict(options.backend_options))
        lines = None if added is None else added.get(file.path, frozenset())
        out.extend(v for v in unused_suppressions(result.display, data, backend, table,
                                                  options.settings, file.path)
                   if lines is None or v.line in lines)
    return out


def _summary(verdict: Verdict, selection: Selection, baseline: Baseline | None,
             change: Change | None) -> None:
    _problems(verdict)
    context = [selection.describe()]
    if baseline is not None and verdict.known:
        context.append(f"{verdict.known} known in {display_path(baseline.path)}")
    if change is not None:
        context.append(f"only lines added by {change.description}")
        if verdict.outside_diff:
            context[-1] += f", {verdict.outside_diff} elsewhere not counted"
    files = f"{verdict.files} file{'s' if verdict.files != 1 else ''}"
    if not verdict.failed:
        click.echo(f"hipport check: no new violations in {files} ({'; '.join(context)})",
                   err=True)
    else:
        n = len(verdict.new)
        click.echo(f"hipport check: {n} new violation{'s' if n != 1 else ''} in {files} "
                   f"({'; '.join(context)})", err=True)
        found = {v.code for v in verdict.new if v.code.startswith("HP")}
        if UNREAD in found:  # no comment in the file can be read, so none can silence it
            click.echo(f"  hipport could not read a file ({UNREAD}) that may hold CUDA code: "
                       f"save it as UTF-8, or leave it out (--exclude, --ignore {UNREAD}).",
                       err=True)
        codes = sorted(found - {UNREAD})
        fixable = sorted({v.path for v in verdict.new
                          if v.finding is not None and v.finding.finding.fix is not None})
        if fixable:
            click.echo(f"  `hipport convert --in-place {' '.join(fixable)}` rewrites the "
                       "ones with a HIP equivalent.", err=True)
        if codes:
            click.echo(f"  A line that must stay as it is: add `// hipport: ignore[{codes[0]}]` "
                       f"to it or to the line above. `hipport explain {codes[0]}` says why "
                       "it fails.", err=True)
    if verdict.stale:
        entries = "entries no longer occur" if verdict.stale != 1 else "entry no longer occurs"
        click.echo(f"hipport check: note: {verdict.stale} baseline {entries} in these files; "
                   "`hipport check --write-baseline` drops them", err=True)


def _problems(verdict: Verdict) -> None:
    for problem in verdict.problems:
        click.echo(f"hipport check: warning: not checked: {problem}", err=True)
