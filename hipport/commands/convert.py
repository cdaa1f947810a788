"""`hipport convert`: choose files, run the conversion, write, summarise."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import click

from hipport.commands.listing import Listing, fix_hints, summary_line
from hipport.errors import UsageError
from hipport.files import Selection
from hipport.options import FrontEnd, build_settings, display_path, offload_targets
from hipport.output import FORMATS, HUMAN_FORMATS
from hipport.output.progress import progress_bar
from hipport.output.style import color_diff, color_wanted, interactive
from hipport.pipeline import Plan, Request, Run, execute, plan
from hipport.runner import Mode
from hipport.score import UNREAD, not_read, to_confirm
from hipport.stale import prune, stale_outputs

_STALE_SHOWN = 10  # stale outputs named one by one; the rest are counted


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
    strategy: str = "rewrite"
    unsafe_fixes: bool = False
    rocm_version: str | None = None
    assume_cuda_version: str | None = None
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
    output_format: str = "concise"
    statistics: bool = False
    show_fixes: bool = False
    color: str = "auto"
    prune: bool = False  # -o DIR: remove outputs whose source is gone
    verify: bool = False  # then compile the converted translation units with hipcc
    hipcc: str | None = None
    hipcc_args: tuple[str, ...] = ()
    compat_header: str = ""
    compat_macro: str = ""


def compat_macro(name: str) -> str:
    if name and not re.fullmatch(r"[A-Za-z_]\w*", name):
        raise UsageError(f"--compat-macro: {name!r} is not a macro name")
    return name


def _mode(req: ConvertRequest) -> Mode:
    chosen = [m for m, on in ((Mode.MIRROR, req.output is not None),
                              (Mode.IN_PLACE, req.in_place), (Mode.DIFF, req.diff)) if on]
    if len(chosen) > 1:
        raise UsageError("choose one of -o/--output, --in-place and --diff")
    return chosen[0] if chosen else Mode.DRY_RUN


def _validate(req: ConvertRequest, mode: Mode) -> None:
    if req.output_format not in FORMATS:
        raise UsageError(f"unknown output format {req.output_format!r}; choose one of "
                         + ", ".join(FORMATS))
    machine = req.output_format not in HUMAN_FORMATS
    if mode is Mode.DIFF and machine:
        raise UsageError(f"--diff and --output-format {req.output_format} both write to "
                         "stdout; choose one (or write the files with -o DIR or --in-place)")
    if req.statistics and req.output_format not in HUMAN_FORMATS | {"json"}:
        raise UsageError("--statistics prints a table, or a JSON list with --output-format "
                         f"json; not {req.output_format}")
    if req.prune and mode is not Mode.MIRROR:
        raise UsageError("--prune only applies to -o/--output DIR")
    if (req.hipcc or req.hipcc_args) and not req.verify:
        raise UsageError("--hipcc and --hipcc-arg only apply to --verify")
    if req.verify and mode not in (Mode.MIRROR, Mode.IN_PLACE):
        why = "--diff writes nothing" if mode is Mode.DIFF else "a dry run writes nothing"
        raise UsageError(f"--verify compiles the converted files, but {why}: use -o DIR or "
                         "--in-place (or `hipport verify PATH` on a tree converted earlier)")


def run_convert(req: ConvertRequest) -> int:
    mode = _mode(req)
    _validate(req, mode)
    settings = replace(build_settings(req.launch_syntax, req.unsafe_fixes, req.rocm_version,
                                      req.fast, req.assume_cuda_version, req.strategy),
                       compat_header=req.compat_header,
                       compat_macro=compat_macro(req.compat_macro),
                       offload_arch=offload_targets(req.offload_arch) if req.offload_arch
                       else ())
    request = Request(
        tuple(req.paths), mode, settings,
        Selection(req.include, req.exclude, build_files=req.build_files), req.front_end,
        req.rules, req.jobs, cache=req.cache, debug=req.debug, output=req.output,
        force=req.force, backup=req.backup, offload_arch=offload_targets(req.offload_arch))
    show_progress = not req.quiet and interactive(sys.stderr)
    with progress_bar("converting", None, enabled=show_progress,
                      color=color_wanted(req.color, sys.stderr)) as bar:
        planned = plan(request)
        bar.expect(len(planned.jobs))
        run = execute(planned, observe=bar)
    for notice in run.notices:
        click.echo(f"{display_path(notice.path)}: {notice.text}", err=True)
    _print_diffs(run, req.color)
    listing = Listing.of(run, req, planned)
    listing.print()
    _stale(planned, req)
    stats = run.stats
    if not req.quiet and req.output_format in HUMAN_FORMATS and not req.statistics:
        for hint in fix_hints(listing, req.unsafe_fixes):
            click.echo(hint, err=True)
    click.echo(summary_line(stats, listing.palette), err=True)
    if mode is Mode.DRY_RUN and not req.quiet:
        click.echo("nothing written: use -o DIR, --in-place or --diff", err=True)
    code = _exit_code(run, req)
    if req.verify:
        code = max(code, _verify(planned, req))
    return code


def _verify(planned: Plan, req: ConvertRequest) -> int:
    """`--verify`: compile what was written (the output tree, or the files
    converted in place), findings placed in the CUDA originals too."""
    from hipport.commands.verify import verify_converted
    from hipport.verify import Request as VerifyRequest

    out = planned.options.output
    paths = (out,) if out is not None else tuple(req.paths)
    targets = [(job.target, job.source) for job in planned.jobs
               if job.target is not None and job.convert]
    arch = offload_targets(req.offload_arch) if req.offload_arch else ()
    request = VerifyRequest(paths, req.hipcc, arch, req.front_end.compile_commands,
                            req.hipcc_args, jobs=req.jobs)
    return verify_converted(request, targets, req.quiet, req.color, req.strict)


def _print_diffs(run: Run, color: str) -> None:
    colored = color_wanted(color, sys.stdout)
    for r in run.results:
        if r.diff:
            # The diff carries the file's own bytes (Latin-1, invalid UTF-8):
            # written as bytes, whatever encoding the terminal or the pipe has.
            data = r.diff.encode("utf-8", "surrogateescape")
            sys.stdout.flush()
            sys.stdout.buffer.write(color_diff(data) if colored else data)
    sys.stdout.flush()


def _stale(planned: Plan, req: ConvertRequest) -> None:
    """After a mirror run: outputs whose source is gone (a deleted or renamed
    file), reported, and removed with --prune."""
    out = planned.options.output
    if out is None or not all(p.is_dir() for p in req.paths):
        return
    stale = stale_outputs(out, [p.resolve() for p in req.paths])
    if planned.compat is not None:  # the generated header has no source, by design
        stale = [p for p in stale if p != planned.compat.target]
    if not stale:
        return
    if req.prune:
        for removal in prune(stale, out):
            if removal.error:
                click.echo(f"hipport: could not remove {display_path(removal.path)}: "
                           f"{removal.error}", err=True)
            elif not req.quiet:
                click.echo(f"removed {display_path(removal.path)} (not in the input)", err=True)
        return
    n = len(stale)
    click.echo(f"hipport: {n} file{'s' if n != 1 else ''} in {display_path(out)} "
               f"{'have' if n != 1 else 'has'} no counterpart in the input (a source deleted "
               "or renamed since an earlier run?):", err=True)
    for path in stale[:_STALE_SHOWN]:
        click.echo(f"  {display_path(path)}", err=True)
    if n > _STALE_SHOWN:
        click.echo(f"  ... and {n - _STALE_SHOWN} more", err=True)
    click.echo(f"  `--prune` removes {'them' if n != 1 else 'it'}; nothing else does.", err=True)


def _exit_code(run: Run, req: ConvertRequest) -> int:
    stats = run.stats
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
        unconfirmed = [f for r in run.results for f in to_confirm(r.findings)]
        if unconfirmed:
            n, codes = len(unconfirmed), sorted({f.code for f in unconfirmed})
            click.echo(f"hipport: --strict: {n} change{'s' if n != 1 else ''} "
                       f"{'need' if n != 1 else 'needs'} a person's confirmation ("
                       + ", ".join(codes) + f"; `hipport explain {codes[0]}` says how)", err=True)
            return 1
    return 0
