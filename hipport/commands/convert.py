"""`hipport convert`: choose files, run the conversion, write, summarise."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from hipport.errors import UsageError
from hipport.files import Selection, Skipped, SourcePath, discover
from hipport.runner import (FileResult, Job, Mode, Outcome, RunOptions, default_workers,
                            run_batch, tally)
from hipport.settings import Settings
from hipport.table.schema import parse_version


@dataclass(frozen=True)
class ConvertRequest:
    paths: tuple[Path, ...]
    output: Path | None = None
    in_place: bool = False
    diff: bool = False
    force: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    launch_syntax: str = "keep"
    unsafe_fixes: bool = False
    rocm_version: str | None = None
    rules: tuple[str, ...] = ()
    strict: bool = False
    jobs: int = 0
    quiet: bool = False
    verbose: bool = False
    fast: bool = False
    debug: bool = False


def _mode(req: ConvertRequest) -> Mode:
    chosen = [m for m, on in ((Mode.MIRROR, req.output is not None),
                              (Mode.IN_PLACE, req.in_place), (Mode.DIFF, req.diff)) if on]
    if len(chosen) > 1:
        raise UsageError("choose one of -o/--output, --in-place and --diff")
    return chosen[0] if chosen else Mode.CHECK


def _check_output(output: Path, roots: list[Path], force: bool) -> Path:
    out = output.resolve()
    for root in roots:
        if out == root or out.is_relative_to(root):
            raise UsageError(f"output directory {output} is inside the input tree {root}; "
                             "choose a directory outside it")
        if root.is_relative_to(out):
            raise UsageError(f"output directory {output} contains the input {root}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"output {output} exists and is not a directory")
    if out.exists() and any(out.iterdir()) and not force:
        raise UsageError(f"output directory {output} is not empty; use --force to write "
                         "into it anyway")
    return out


def _jobs(req: ConvertRequest, mode: Mode, out: Path | None) -> tuple[list[Job], list[Skipped]]:
    selection = Selection(req.include, req.exclude)
    roots = [p.resolve() if p.is_dir() else p.resolve().parent for p in req.paths]
    several = len(req.paths) > 1
    jobs: list[Job] = []
    skipped: list[Skipped] = []
    for item in discover(req.paths, selection, with_others=mode is Mode.MIRROR, avoid=out):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        jobs.append(_job(item, mode, out, several))
    if not jobs and not skipped:
        raise UsageError("no source files found under " + ", ".join(map(str, req.paths)))
    del roots
    return jobs, skipped


def _job(item: SourcePath, mode: Mode, out: Path | None, several: bool) -> Job:
    display = _display(item.path)
    target = None
    if mode is Mode.MIRROR and out is not None:
        target = out / (item.root.name if several else "") / item.relative
    elif mode is Mode.IN_PLACE:
        target = item.path
    return Job(item.path, display, target, convert=item.is_source)


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def run_convert(req: ConvertRequest) -> int:
    mode = _mode(req)
    settings = Settings(
        launch_syntax=req.launch_syntax,
        unsafe_fixes=req.unsafe_fixes,
        rocm_version=parse_version(req.rocm_version) if req.rocm_version else None,
        stability_check=not req.fast,
    )
    roots = [p.resolve() if p.is_dir() else p.resolve().parent for p in req.paths]
    out = _check_output(req.output, roots, req.force) if req.output is not None else None
    jobs, skipped = _jobs(req, mode, out)
    options = RunOptions(mode, settings, req.rules, debug=req.debug)
    workers = req.jobs if req.jobs > 0 else default_workers()
    results = run_batch(jobs, options, workers)
    for s in skipped:
        click.echo(f"{_display(s.path)}: skipped: {s.reason}", err=True)
    for r in results:
        _print_result(r, req)
    run = tally(results)
    run.files_skipped += len(skipped)
    click.echo(run.summary(), err=True)
    if mode is Mode.CHECK and not req.quiet:
        click.echo("nothing written: use -o DIR, --in-place or --diff", err=True)
    if run.files_failed:
        return 1
    if req.strict and run.totals.refs_unconverted:
        return 1
    return 0


def _print_result(r: FileResult, req: ConvertRequest) -> None:
    if r.diff:
        sys.stdout.write(r.diff)
    if req.quiet:
        return
    if r.outcome is Outcome.SKIPPED and r.error and r.stats.lines == 0 and not r.findings:
        return  # a mirrored non-source file
    for f in r.findings:
        if f.applied and not req.verbose:
            continue
        click.echo(f"{r.display}:{f.location.line}:{f.location.column}: {f.code} "
                   f"{f.finding.message}", err=True)
