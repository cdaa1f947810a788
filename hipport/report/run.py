"""The report of a tree, as a library call: run the conversion in dry-run
mode (nothing written), measure the compat strategy beside it, and build one
``Report``.  ``hipport report`` (``hipport.commands.report``) only chooses the
format and prints; tests, tools and benchmarks call ``make_report`` too."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from hipport.artifacts import output_target
from hipport.buildfiles import detect_build_kind
from hipport.buildfiles.project import Configuration
from hipport.compat.header import render as render_header
from hipport.compat.strategy import CompatStrategy
from hipport.compat.tree import uses_of
from hipport.config import load_config
from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.filenames import display_path, shown_path
from hipport.files import Selection
from hipport.jobs import FileResult
from hipport.output.progress import progress_bar
from hipport.pipeline import execute, plan
from hipport.report.built import Builder, BuildOutcome
from hipport.report.effort import load_effort_model
from hipport.report.model import Report, build_report
from hipport.report.reach import build_reach
from hipport.report.strategies import StrategyRow, strategy_row
from hipport.request import FrontEnd, Request
from hipport.table import load_table
from hipport.values import build_settings


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
    polyfills: str = "safe"  # --polyfills
    roc: bool = False  # --roc: rocBLAS and rocRAND, not hipBLAS and hipRAND
    # Bill from a build of the converted tree (made in a scratch folder) rather
    # than from the findings alone: make_report's ``builder`` builds it.
    verify: bool = False
    timeout: float = 300.0  # seconds per compile, with verify
    sandbox: bool = True  # with verify: the build runs in a sandbox (False: --no-sandbox)
    configuration: Configuration = Configuration()  # with verify: -D, --make-var


def make_report(req: ReportRequest, progress: bool = False,
                builder: Builder | None = None) -> Report:
    """The report for ``req``; reads the sources, writes nothing in them
    (``req.verify`` converts into a scratch folder and ``builder`` builds it)."""
    if req.verify and builder is None:
        raise UsageError("a report on a built tree (--verify) needs a builder; "
                         "hipport.built.BUILD is the one `hipport report --verify` uses")
    model = load_effort_model(load_config(req.paths[0] if req.paths else None, req.config))
    selection = Selection(req.include, req.exclude, build_files=req.build_files)
    planned = plan(Request(
        tuple(req.paths), Mode.DRY_RUN,
        build_settings(unsafe_fixes=req.unsafe_fixes, rocm_version=req.rocm_version,
                       assume_cuda_version=req.assume_cuda_version, polyfills=req.polyfills,
                       roc=req.roc),
        selection, req.front_end, req.rules, req.jobs, cache=req.cache, debug=req.debug,
        names_from_root=True))
    if req.output is not None:  # refused before any work: a report never replaces code
        output_target(req.output, "report", req.paths, selection, planned.jobs)
    with progress_bar("analysing", len(planned.jobs), enabled=progress) as advance:
        run = execute(planned, observe=advance)
    strategies = compare_strategies(req, planned.request, run.results)
    outcome = built_outcome(planned.request, builder, req) if builder and req.verify else None
    shown = {"unsafe-fixes": "on"} if req.unsafe_fixes else {}
    if req.rocm_version:
        shown["rocm-version"] = req.rocm_version
    if req.assume_cuda_version:
        shown["assume-cuda-version"] = req.assume_cuda_version
    if req.rules:
        shown["rules"] = ", ".join(req.rules)
    if req.roc:
        shown["roc"] = "on"
    return build_report(
        run.results, load_table(req.rules).in_mode(req.roc), model,
        # Named as in the report's file list: no path of the machine that made it.
        paths=[shown_path(Path(p.resolve().name)) for p in req.paths],
        settings=shown, skipped=[f"{display_path(s.path)}: {s.reason}"
                                 for s in planned.skipped],
        strategies=strategies, reach=build_reach(req.paths),
        named={job.display: job.source.resolve() for job in planned.jobs}, outcome=outcome)


def built_outcome(request: Request, builder: Builder, req: ReportRequest) -> BuildOutcome:
    """Convert the tree into a scratch folder (named as the report names its
    files) and build it; the folder is removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="hipport-report-") as scratch:
        converted = Path(scratch) / "converted"
        execute(plan(replace(request, mode=Mode.MIRROR, output=converted,
                             names_from_root=True)))
        return builder(converted, req.jobs, req.timeout)


def compare_strategies(req: ReportRequest, request: Request,
                       rewrite: list[FileResult]) -> tuple[StrategyRow, ...]:
    """The same files under --strategy compat, for the side-by-side table
    (the header is measured, never written)."""
    compat = CompatStrategy()
    compat_request = replace(request, strategy=compat,
                             selection=replace(request.selection, build_files=False))
    try:
        planned = plan(compat_request)
    except UsageError:  # e.g. a hip_compat.h of the project's own
        return ()
    results = execute(planned).results
    (header,) = planned.generated
    text = render_header(uses_of(results, load_table(req.rules).in_mode(req.roc)), "",
                         header.path.name)
    sources = [r for r in rewrite if detect_build_kind(r.display) is None]
    return (strategy_row(request.strategy.name, sources),
            strategy_row(compat.name, results, (header.display, text.count(b"\n"))))
