"""`hipport convert`: choose files, run the conversion, write, summarise."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from hipport.commands.common import (FrontEnd, build_settings, check_backup_names,
                                     check_output_dir, check_output_parents, collect_jobs,
                                     display_path, offload_targets, roots_of)
from hipport.errors import UsageError
from hipport.files import Selection, Skipped
from hipport.locking import writing_under
from hipport.runner import FileResult, Mode, Outcome, RunOptions, default_workers, run_batch, tally
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
    mode = _mode(req)
    settings = build_settings(req.launch_syntax, req.unsafe_fixes, req.rocm_version, req.fast)
    roots = roots_of(req.paths)
    out = check_output_dir(req.output, roots, req.force) if req.output is not None else None
    selection = Selection(req.include, req.exclude, build_files=req.build_files)
    _check_backup(req.backup, mode)
    jobs, skipped = collect_jobs(req.paths, mode, selection, out)
    if req.backup is not None:
        check_backup_names(jobs, req.backup, selection)
    if out is not None:
        check_output_parents(jobs, out)
    backend, backend_options = req.front_end.run_options()
    options = RunOptions(mode, settings, req.rules, backend, backend_options, debug=req.debug,
                         offload_arch=offload_targets(req.offload_arch), cache=req.cache,
                         backup=req.backup, force=req.force, output=out)
    workers = req.jobs if req.jobs > 0 else default_workers()
    writes_under = [out] if out is not None else list(req.paths) if mode is Mode.IN_PLACE else []
    with writing_under(writes_under):
        for s in skipped:
            click.echo(f"{display_path(s.path)}: {_leftover(s, mode)}", err=True)
        results = run_batch(jobs, options, workers)
    for r in results:
        _print_result(r, req)
    run = tally(results)
    run.files_skipped += sum(not s.leftover for s in skipped)
    click.echo(run.summary(), err=True)
    if mode is Mode.DRY_RUN and not req.quiet:
        click.echo("nothing written: use -o DIR, --in-place or --diff", err=True)
    if run.files_failed:
        return 1
    if req.strict:
        unread = sum(not_read(r.findings) is not None for r in results)
        if unread:  # they may hold CUDA code nobody has seen
            click.echo(f"hipport: --strict: {unread} file{'s' if unread != 1 else ''} could "
                       f"not be read as source text ({UNREAD}) and {'were' if unread != 1 else 'was'} "
                       "not converted", err=True)
            return 1
        if run.totals.refs_unconverted:
            return 1
    return 0


def _check_backup(suffix: str | None, mode: Mode) -> None:
    if suffix is None:
        return
    if mode is not Mode.IN_PLACE:
        raise UsageError("--backup only applies to --in-place")
    if not suffix or "/" in suffix or suffix in (".", "..") or "\0" in suffix:
        raise UsageError(f"--backup: {suffix!r} is not a file-name suffix (try .orig)")


def _leftover(s: Skipped, mode: Mode) -> str:
    """Temporary files of a killed run: an in-place run removes them before
    it starts (one may be a second name of a source, which would otherwise
    look hard-linked); other modes only say so."""
    if not s.leftover:
        return f"skipped: {s.reason}"
    if mode is Mode.IN_PLACE:
        try:
            s.path.unlink()
        except OSError as exc:
            return f"skipped: {s.reason}; could not remove it: {exc.strerror}"
        return f"removed: {s.reason}"
    return f"skipped: {s.reason} (safe to delete; the next --in-place run removes it)"


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
