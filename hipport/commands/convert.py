"""`hipport convert`: choose files, run the conversion, write, summarise."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from hipport.commands.common import FrontEnd, build_settings, display_path, offload_targets
from hipport.errors import UsageError
from hipport.files import Selection
from hipport.pipeline import Request, execute, plan
from hipport.runner import FileResult, Mode, Outcome
from hipport.score import UNREAD, not_read


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
    build_files: bool = True
    offload_arch: str | None = None  # "gfx90a;gfx942"
    backup: str | None = None  # --in-place: keep each replaced file as NAME + suffix
    front_end: FrontEnd = FrontEnd()
    cache: bool = True


def _mode(req: ConvertRequest) -> Mode:
    chosen = [m for m, on in ((Mode.MIRROR, req.output is not None),
                              (Mode.IN_PLACE, req.in_place), (Mode.DIFF, req.diff)) if on]
    if len(chosen) > 1:
        raise UsageError("choose one of -o/--output, --in-place and --diff")
    return chosen[0] if chosen else Mode.DRY_RUN


def run_convert(req: ConvertRequest) -> int:
    request = Request(
        tuple(req.paths), _mode(req),
        build_settings(req.launch_syntax, req.unsafe_fixes, req.rocm_version, req.fast),
        Selection(req.include, req.exclude, build_files=req.build_files), req.front_end,
        req.rules, req.jobs, cache=req.cache, debug=req.debug, output=req.output,
        force=req.force, backup=req.backup, offload_arch=offload_targets(req.offload_arch))
    run = execute(plan(request), observe=None)
    for notice in run.notices:
        click.echo(f"{display_path(notice.path)}: {notice.text}", err=True)
    for r in run.results:
        _print_result(r, req)
    stats = run.stats
    click.echo(stats.summary(), err=True)
    if request.mode is Mode.DRY_RUN and not req.quiet:
        click.echo("nothing written: use -o DIR, --in-place or --diff", err=True)
    if stats.files_failed:
        return 1
    if req.strict:
        unread = sum(not_read(r.findings) is not None for r in run.results)
        if unread:  # they may hold CUDA code nobody has seen
            click.echo(f"hipport: --strict: {unread} file{'s' if unread != 1 else ''} could "
                       f"not be read as source text ({UNREAD}) and "
                       f"{'were' if unread != 1 else 'was'} not converted", err=True)
            return 1
        if stats.totals.refs_unconverted:
            return 1
    return 0


def _print_result(r: FileResult, req: ConvertRequest) -> None:
    if r.diff:
        # The diff carries the file's own bytes (Latin-1, invalid UTF-8):
        # written as bytes, whatever encoding the terminal or the pipe has.
        sys.stdout.flush()
        sys.stdout.buffer.write(r.diff.encode("utf-8", "surrogateescape"))
    if req.quiet:
        return
    if r.outcome is Outcome.SKIPPED and r.error and r.stats.lines == 0 and not r.findings:
        return  # a mirrored non-source file
    for f in r.findings:
        if f.applied and not req.verbose:
            continue
        click.echo(f"{r.display}:{f.location.line}:{f.location.column}: {f.code} "
                   f"{f.finding.message}", err=True)
