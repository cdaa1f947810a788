"""`hipport convert`: choose files, run the conversion, write, summarise."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hipport.buildfiles.project import Configuration
from hipport.commands.listing import Listing, Shown, fix_hints, summary_line
from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.filenames import display_path
from hipport.jobs import Outcome
from hipport.output import FORMATS, HUMAN_FORMATS
from hipport.output.progress import progress_bar
from hipport.output.style import color_diff, color_wanted, interactive
from hipport.pipeline import Plan, Run, execute, plan
from hipport.request import Request
from hipport.score import UNREAD, not_read, to_confirm
from hipport.stale import prune, stale_outputs
from hipport.words import plural

if TYPE_CHECKING:
    from hipport.verify import Request as VerifyRequest

_STALE_SHOWN = 10  # stale outputs named one by one; the rest are counted


@dataclass(frozen=True)
class AfterConvert:
    """What `convert` does besides converting."""

    strict: bool = False  # exit 1 when unconverted references remain
    prune: bool = False  # -o DIR: remove outputs whose source is gone
    verify: bool = False  # then build the converted tree (or compile its translation units)
    hipcc: str | None = None
    hipcc_args: tuple[str, ...] = ()
    # --offload-arch as typed: --verify compiles for each (not given: the
    # build files' first target).
    verify_arch: tuple[str, ...] = ()
    verify_units: bool = False  # --verify-units: compile each translation unit alone
    sandbox: bool = True  # --verify builds in a sandbox; False: --no-sandbox
    configuration: Configuration = Configuration()  # --verify: -D, --make-var


def convert_mode(output: Path | None, in_place: bool, diff: bool) -> Mode:
    chosen = [m for m, on in ((Mode.MIRROR, output is not None), (Mode.IN_PLACE, in_place),
                              (Mode.DIFF, diff)) if on]
    if len(chosen) > 1:
        raise UsageError("choose one of -o/--output, --in-place and --diff")
    return chosen[0] if chosen else Mode.DRY_RUN


def _validate(request: Request, shown: Shown, after: AfterConvert) -> None:
    mode = request.mode
    if shown.output_format not in FORMATS:
        raise UsageError(f"unknown output format {shown.output_format!r}; choose one of "
                         + ", ".join(FORMATS))
    machine = shown.output_format not in HUMAN_FORMATS
    if mode is Mode.DIFF and machine:
        raise UsageError(f"--diff and --output-format {shown.output_format} both write to "
                         "stdout; choose one (or write the files with -o DIR or --in-place)")
    if shown.statistics and shown.output_format not in HUMAN_FORMATS | {"json"}:
        raise UsageError("--statistics prints a table, or a JSON list with --output-format "
                         f"json; not {shown.output_format}")
    if after.prune and mode is not Mode.MIRROR:
        raise UsageError("--prune only applies to -o/--output DIR")
    if (after.hipcc or after.hipcc_args) and not after.verify:
        raise UsageError("--hipcc and --hipcc-arg only apply to --verify")
    if after.configuration != Configuration() and not after.verify:
        raise UsageError("-D and --make-var only apply to --verify (they configure the build "
                         "of the converted tree)")
    if not after.sandbox and not after.verify:
        raise UsageError("--no-sandbox only applies to --verify")
    if after.verify and mode not in (Mode.MIRROR, Mode.IN_PLACE):
        why = "--diff writes nothing" if mode is Mode.DIFF else "a dry run writes nothing"
        raise UsageError(f"--verify compiles the converted files, but {why}: use -o DIR or "
                         "--in-place (or `hipport verify PATH` on a tree converted earlier)")


def run_convert(request: Request, shown: Shown,
                after: AfterConvert = AfterConvert()) -> int:
    _validate(request, shown, after)
    show_progress = not shown.quiet and interactive(sys.stderr)
    with progress_bar("converting", None, enabled=show_progress,
                      color=color_wanted(shown.color, sys.stderr)) as bar:
        planned = plan(request)
        if after.verify:
            _probe(planned, after)  # a compiler that cannot verify refuses the run here
        bar.expect(len(planned.jobs))
        run = execute(planned, observe=bar)
    for notice in run.notices:
        click.echo(f"{display_path(notice.path)}: {notice.text}", err=True)
    _print_diffs(run, shown.color)
    listing = Listing.of(run, shown, planned)
    listing.print()
    _stale(planned, shown, after)
    stats = run.stats
    if not shown.quiet and shown.output_format in HUMAN_FORMATS and not shown.statistics:
        for hint in fix_hints(listing, request.settings.unsafe_fixes):
            click.echo(hint, err=True)
    updated = [r.display for r in run.results if r.generated and r.outcome is Outcome.CONVERTED
               and request.mode in (Mode.IN_PLACE, Mode.MIRROR)]
    click.echo(summary_line(stats, listing.palette, planned.options.strategy.settled, updated),
               err=True)
    if request.mode is Mode.DRY_RUN and not shown.quiet:
        click.echo("nothing written: use -o DIR, --in-place or --diff", err=True)
    code = _exit_code(run, after)
    if after.verify:
        code = max(code, _verify(planned, shown, after))
    return code


def _verify_request(planned: Plan, after: AfterConvert, paths: tuple[Path, ...]
                    ) -> VerifyRequest:
    from hipport.verify import UNITS
    from hipport.verify import Request as VerifyRequest

    request = planned.request
    return VerifyRequest(paths, after.hipcc, after.verify_arch,
                         request.front_end.compile_commands, after.hipcc_args,
                         jobs=request.jobs, mode=UNITS if after.verify_units else None,
                         sandbox=after.sandbox, configuration=after.configuration)


def _probe(planned: Plan, after: AfterConvert) -> None:
    """Before anything is written: the compiler --verify will use (and, for
    a tree with build files, cmake and make) must run; else the run is
    refused (exit 2), not converted and then left unverified."""
    from hipport.verify import probe

    probe(_verify_request(planned, after, tuple(planned.request.paths)))


def _verify(planned: Plan, shown: Shown, after: AfterConvert) -> int:
    """`--verify`: build or compile what was written (the output tree, or the
    files converted in place), findings placed in the CUDA originals too."""
    from hipport.commands.verify import verify_converted

    out = planned.options.output
    paths = (out,) if out is not None else tuple(planned.request.paths)
    targets = [(job.target, job.source) for job in planned.jobs
               if job.target is not None and job.convert]
    verify = _verify_request(planned, after, paths)
    return verify_converted(verify, targets, shown.quiet, shown.color, after.strict)


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


def _stale(planned: Plan, shown: Shown, after: AfterConvert) -> None:
    """After a mirror run: outputs whose source is gone (a deleted or renamed
    file), reported, and removed with --prune."""
    out, paths = planned.options.output, planned.request.paths
    if out is None or not all(p.is_dir() for p in paths):
        return
    stale = stale_outputs(out, [p.resolve() for p in paths])
    # A generated file (the compat header) has no source, by design.
    generated = {g.target for g in planned.generated}
    stale = [p for p in stale if p not in generated]
    if not stale:
        return
    if after.prune:
        for removal in prune(stale, out):
            if removal.error:
                click.echo(f"hipport: could not remove {display_path(removal.path)}: "
                           f"{removal.error}", err=True)
            elif not shown.quiet:
                click.echo(f"removed {display_path(removal.path)} (not in the input)", err=True)
        return
    n = len(stale)
    click.echo(f"hipport: {plural(n, 'file')} in {display_path(out)} "
               f"{'have' if n != 1 else 'has'} no counterpart in the input (a source deleted "
               "or renamed since an earlier run?):", err=True)
    for path in stale[:_STALE_SHOWN]:
        click.echo(f"  {display_path(path)}", err=True)
    if n > _STALE_SHOWN:
        click.echo(f"  ... and {n - _STALE_SHOWN} more", err=True)
    click.echo(f"  `--prune` removes {'them' if n != 1 else 'it'}; nothing else does.", err=True)


def _exit_code(run: Run, after: AfterConvert) -> int:
    stats = run.stats
    if stats.files_failed:
        return 1
    if after.strict:
        unread = sum(not_read(r.findings) is not None for r in run.results)
        if unread:  # they may hold CUDA code nobody has seen
            click.echo(f"hipport: --strict: {plural(unread, 'file')} could "
                       f"not be read as source text ({UNREAD}) and "
                       f"{'were' if unread != 1 else 'was'} not converted", err=True)
            return 1
        if stats.totals.refs_unconverted:
            return 1
        unconfirmed = [f for r in run.results for f in to_confirm(r.findings)]
        if unconfirmed:
            n, codes = len(unconfirmed), sorted({f.code for f in unconfirmed})
            click.echo(f"hipport: --strict: {plural(n, 'change')} "
                       f"{'need' if n != 1 else 'needs'} a person's confirmation ("
                       + ", ".join(codes) + f"; `hipport explain {codes[0]}` says how)", err=True)
            return 1
    return 0
