"""`hipport report`: run the conversion in check mode (nothing written to the
sources), build one Report and render it in the format asked for."""
from __future__ import annotations

import io
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import click

from hipport.commands.common import FrontEnd, build_settings, display_path
from hipport.commands.progress import progress_bar
from hipport.compat.header import render as render_header
from hipport.compat.tree import uses_of
from hipport.config import load_config
from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.files import Selection
from hipport.output.style import interactive
from hipport.outputs import output_target, write_output
from hipport.pipeline import Request, execute, plan
from hipport.report import ALIASES, FORMATS, render
from hipport.report.effort import load_effort_model
from hipport.report.model import Report, build_report
from hipport.report.strategies import StrategyRow, strategy_row
from hipport.report.view import headline
from hipport.runner import FileResult, Mode
from hipport.table import load_table


@dataclass(frozen=True)
class ReportRequest:
    paths: tuple[Path, ...]
    format: str | None = None  # None: from the output's extension, else text
    output: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    rocm_version: str | None = None
    rules: tuple[str, ...] = ()
    config: Path | None = None
    jobs: int = 0
    quiet: bool = False
    debug: bool = False
    build_files: bool = True
    front_end: FrontEnd = FrontEnd()
    cache: bool = True
    assume_cuda_version: str | None = None


def make_report(req: ReportRequest, progress: bool = False) -> Report:
    """The report for ``req``; reads the sources, writes nothing."""
    model = load_effort_model(load_config(req.paths[0] if req.paths else None, req.config))
    selection = Selection(req.include, req.exclude, build_files=req.build_files)
    planned = plan(Request(
        tuple(req.paths), Mode.DRY_RUN,
        build_settings(unsafe_fixes=req.unsafe_fixes, rocm_version=req.rocm_version,
                       assume_cuda_version=req.assume_cuda_version),
        selection, req.front_end, req.rules, req.jobs, cache=req.cache, debug=req.debug,
        names_from_root=True))
    if req.output is not None:  # refused before any work: a report never replaces code
        output_target(req.output, "report", req.paths, selection, planned.jobs)
    with progress_bar("analysing", len(planned.jobs), enabled=progress) as advance:
        run = execute(planned, observe=advance)
    strategies = compare_strategies(req, planned.request, run.results)
    shown = {"unsafe-fixes": "on"} if req.unsafe_fixes else {}
    if req.rocm_version:
        shown["rocm-version"] = req.rocm_version
    if req.assume_cuda_version:
        shown["assume-cuda-version"] = req.assume_cuda_version
    if req.rules:
        shown["rules"] = ", ".join(req.rules)
    return build_report(
        run.results, load_table(req.rules), model,
        # Named as in the report's file list: no path of the machine that made it.
        paths=[shown_path(Path(p.resolve().name)) for p in req.paths],
        settings=shown, skipped=[f"{display_path(s.path)}: {s.reason}"
                                 for s in planned.skipped],
        strategies=strategies)


def compare_strategies(req: ReportRequest, request: Request,
                       rewrite: list[FileResult]) -> tuple[StrategyRow, ...]:
    """The same files under --strategy compat, for the side-by-side table
    (the header is measured, never written)."""
    compat_request = replace(request, settings=replace(request.settings, strategy="compat"),
                             selection=replace(request.selection, build_files=False))
    try:
        planned = plan(compat_request)
    except UsageError:  # e.g. a hip_compat.h of the project's own
        return ()
    results = execute(planned).results
    header = planned.compat
    assert header is not None
    text = render_header(uses_of(results, load_table(req.rules)), "", header.path.name)
    return (strategy_row("rewrite", [r for r in rewrite if not _build_file(r)]),
            strategy_row("compat", results, (header.display, text.count(b"\n"))))


def _build_file(result: FileResult) -> bool:
    name = result.display.rsplit("/", 1)[-1]
    return name == "CMakeLists.txt" or name.endswith(".cmake") or name.startswith(
        ("Makefile", "makefile", "GNUmakefile")) or name.endswith((".mk", ".make"))


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
    report = make_report(req, progress=show_progress)
    if req.output is None:
        render(name, report, sys.stdout)
        return 0
    buffer = io.StringIO()
    render(name, report, buffer)
    write_output(req.output.resolve(), buffer.getvalue().encode("utf-8"), "report")
    if not req.quiet:
        click.echo(f"wrote {shown_path(req.output)} ({name}): {headline(report)}", err=True)
    return 0

