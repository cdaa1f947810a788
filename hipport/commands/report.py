"""`hipport report`: choose the format, build the report
(``hipport.report.run.make_report``) and render it to stdout or a file."""
from __future__ import annotations

import functools
import io
import sys
from pathlib import Path

import click

from hipport.artifacts import write_output
from hipport.buildfiles.project import Configuration
from hipport.built import BUILD
from hipport.commands.verify import say
from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.output.style import interactive
from hipport.report import ALIASES, FORMATS, render
from hipport.report.run import ReportRequest, make_report
from hipport.report.view import headline

__all__ = ["ReportRequest", "make_report", "report_format", "run_report"]


# Extensions besides each format's own (``Format.suffix``).
_MORE_SUFFIXES = {".htm": "html", ".markdown": "md"}


def report_format(fmt: str | None, output: Path | None) -> str:
    """The format asked for, or the one the output file's extension names
    (`-o r.html`); a format that contradicts the extension is refused."""
    by_suffix = {f.suffix: name for name, f in FORMATS.items()} | _MORE_SUFFIXES
    inferred = by_suffix.get(output.suffix.lower()) if output is not None else None
    if fmt is None:
        return inferred or "text"
    name = ALIASES.get(fmt, fmt)
    if name not in FORMATS:
        raise UsageError(f"unknown report format {fmt!r}; choose one of " + ", ".join(FORMATS))
    if inferred is not None and inferred != name:
        assert output is not None
        raise UsageError(f"-o {shown_path(output)} names a {inferred} file but --format is "
                         f"{fmt}; change one of them (or leave --format out: the extension "
                         "chooses)")
    return name


def run_report(req: ReportRequest) -> int:
    name = report_format(req.format, req.output)
    show_progress = not req.quiet and interactive(sys.stderr)
    builder = None
    if req.verify:
        _sandbox_ready(req)
        builder = functools.partial(BUILD, sandbox=req.sandbox, say=say,
                                    configuration=req.configuration)
    elif not req.sandbox:
        raise UsageError("--no-sandbox only applies to --verify")
    elif req.configuration != Configuration():
        raise UsageError("-D and --make-var only apply to --verify (they configure the build "
                         "of the converted tree)")
    report = make_report(req, progress=show_progress, builder=builder)
    if req.output is None:
        render(name, report, sys.stdout)
        return 0
    buffer = io.StringIO()
    render(name, report, buffer)
    write_output(req.output.resolve(), buffer.getvalue().encode("utf-8"), "report")
    if not req.quiet:
        click.echo(f"wrote {shown_path(req.output)} ({name}): {headline(report)}", err=True)
    return 0


def _sandbox_ready(req: ReportRequest) -> None:
    """Before the tree is analysed: a build of it (a tree with build files)
    needs the sandbox's tool, or --no-sandbox."""
    from hipport.doctor.system import System
    from hipport.verify import BUILD as BUILD_MODE
    from hipport.verify import Request, choose_mode
    from hipport.verify.sandbox import find_bwrap

    mode, _ = choose_mode(Request(req.paths))
    if mode == BUILD_MODE and req.sandbox:
        find_bwrap(System.current(), "hipport report --verify")

