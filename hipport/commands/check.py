"""`hipport check`: read files, write nothing, exit 1 when a new violation
remains.  The check itself is ``hipport.check.session``; this module turns
options into a request and prints what comes back."""
from __future__ import annotations

import shlex
import sys

import click

from hipport.check.baseline import Baseline
from hipport.check.engine import Verdict
from hipport.check.gitdiff import Change
from hipport.check.output import FORMATS, render
from hipport.check.policy import FailurePolicy
from hipport.check.session import CheckRequest
from hipport.check.session import run_check as check
from hipport.errors import UsageError
from hipport.filenames import display_path
from hipport.output import HUMAN_FORMATS, Options
from hipport.output.model import FixState
from hipport.output.statistics import render_statistics
from hipport.output.style import Palette, color_wanted
from hipport.score import UNREAD
from hipport.words import plural


def _validate(req: CheckRequest, output_format: str, statistics: bool) -> None:
    if output_format not in FORMATS:
        raise UsageError(f"unknown output format {output_format!r}; choose one of "
                         + ", ".join(FORMATS))
    if statistics and output_format not in HUMAN_FORMATS | {"json"}:
        raise UsageError("--statistics prints a table, or a JSON list with --output-format "
                         f"json; not {output_format}")
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


def run_check(req: CheckRequest, output_format: str = "text", quiet: bool = False,
              statistics: bool = False, color: str = "auto") -> int:
    _validate(req, output_format, statistics)
    options = Options(Palette(output_format in HUMAN_FORMATS and color_wanted(color, sys.stdout)))
    run = check(req)
    if not quiet:
        for item in run.skipped:
            click.echo(f"hipport check: skipped {display_path(item.path)}: {item.reason}",
                       err=True)
    verdict = run.verdict
    if verdict is None:
        _list(output_format, statistics, verdict, options)  # an empty json/sarif document
        if not quiet:
            what = run.change.description if run.change is not None else "the input"
            click.echo(f"hipport check: no source lines added in {what}; nothing to check",
                       err=True)
        return 0
    if run.written is not None:
        assert run.baseline is not None
        if not quiet:
            written, dropped = run.written
            extra = f"; {plural(dropped, 'entry')} of deleted files dropped" if dropped else ""
            click.echo(f"hipport check: wrote {display_path(run.baseline.path)}: "
                       f"{plural(written, 'known violation')} "
                       f"({run.failing.describe()}){extra}", err=True)
        _problems(verdict)
        return 0
    _list(output_format, statistics, verdict, options)
    if not quiet or verdict.failed:
        # On a first adoption (no baseline yet, every line counts) the debt
        # of the whole tree fails: say how to record it.
        first_adoption = not req.no_baseline and run.change is None and \
            (run.baseline is None or not len(run.baseline))
        _summary(verdict, run.failing, run.baseline, run.change, first_adoption)
    return 1 if verdict.failed else 0


def _list(output_format: str, statistics: bool, verdict: Verdict | None,
          options: Options) -> None:
    violations = verdict.new if verdict is not None else []
    if statistics:
        # As listed by a check (nothing written): fixable means `hipport convert` fixes it.
        render_statistics(violations, sys.stdout,
                          Options(options.palette, fixes_written=False),
                          as_json=output_format == "json")
    else:
        render(output_format, violations, sys.stdout, options)
    sys.stdout.flush()


def _summary(verdict: Verdict, failing: FailurePolicy, baseline: Baseline | None,
             change: Change | None, first_adoption: bool) -> None:
    _problems(verdict)
    context = [failing.describe()]
    if baseline is not None and verdict.known:
        context.append(f"{verdict.known} known in {display_path(baseline.path)}")
    if change is not None:
        context.append(f"only lines added by {change.description}")
        if verdict.outside_diff:
            context[-1] += f", {verdict.outside_diff} elsewhere not counted"
    files = plural(verdict.files, "file")
    if not verdict.failed:
        click.echo(f"hipport check: no new violations in {files} ({'; '.join(context)})",
                   err=True)
    else:
        n = len(verdict.new)
        click.echo(f"hipport check: {plural(n, 'new violation')} in {files} "
                   f"({'; '.join(context)})", err=True)
        found = {v.code for v in verdict.new if v.code.startswith("HP")}
        if UNREAD in found:  # no comment in the file can be read, so none can silence it
            click.echo(f"  hipport could not read a file ({UNREAD}) that may hold CUDA code: "
                       f"save it as UTF-8, or leave it out (--exclude, --ignore {UNREAD}).",
                       err=True)
        codes = sorted(found - {UNREAD})
        states = [v.fix_state for v in verdict.new]
        fixable = sorted({v.path for v in verdict.new
                          if v.fix_state in (FixState.APPLIED, FixState.SAFE)})
        unsafe = states.count(FixState.UNSAFE)
        if fixable:
            n = states.count(FixState.APPLIED) + states.count(FixState.SAFE)
            paths = " ".join(shlex.quote(p) for p in fixable)  # pasted into a shell as is
            click.echo(f"  [*] {n} fixable: `hipport convert --in-place {paths}` "
                       "rewrites the ones with a HIP equivalent.", err=True)
        if unsafe:
            click.echo(f"  [*] {unsafe} more with `hipport convert --unsafe-fixes` "
                       "(review each).", err=True)
        if first_adoption:
            click.echo("  Adopting hipport on existing code? `hipport check --write-baseline` "
                       "records today's violations as known debt; from then on only new "
                       "ones fail.", err=True)
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
