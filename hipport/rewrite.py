"""The rewrite strategy: CUDA becomes HIP, in every source and build file."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Sequence

from hipport.buildfiles import BuildSystem, hip_build
from hipport.buildfiles.single_source import MARKER as BUILD_SWITCH_MARKER
from hipport.convert import ConversionResult, convert_bytes
from hipport.delivery import Mode
from hipport.errors import UsageError
from hipport.findings import Finding
from hipport.generated import generated
from hipport.jobs import Job
from hipport.parse.model import Backend
from hipport.polyfill_header import IncludeHeader, WriteHeader, header_for, plan_places
from hipport.settings import Settings
from hipport.strategy import Generated, StrategyPlan, Tree
from hipport.table import MappingTable


@dataclass(frozen=True)
class RewriteStrategy:
    name: ClassVar[str] = "rewrite"
    settled: ClassVar[str] = "already converted"
    # (a path named, its polyfill header), absolute once planned; a file
    # under none of them includes the header beside it.
    polyfill_headers: tuple[tuple[str, str], ...] = ()

    def plan(self, tree: Tree) -> StrategyPlan:
        if tree.mode is not Mode.DRY_RUN:
            refuse_rewrite(tree.jobs)
        if not tree.settings.polyfills:  # --polyfills none
            return StrategyPlan(self, tree.jobs)
        places = plan_places(tree.paths, tree.mode, tree.output, tree.jobs, tree.selection)
        planned = replace(self, polyfill_headers=places.pairs())
        way_out = ("make the folder writable, or convert with --polyfills none (the APIs the "
                   "header emulates then stay in the ledger)")
        generated = tuple(g for p in places.places for g in (
            Generated(p.path, p.target, p.display, way_out),
            *(Generated(n.source, n.target, n.display, way_out) for n in p.nested)))
        return StrategyPlan(planned, places.jobs, WriteHeader(places, tree.mode, tree.settings),
                            generated)

    def convert_source(self, data: bytes, backend: Backend, table: MappingTable,
                       settings: Settings, path: Path | None) -> ConversionResult:
        header = header_for(self.polyfill_headers, path)
        prepare = IncludeHeader(header, table, settings, path) \
            if settings.polyfills else None
        return convert_bytes(data, backend, table, settings, path, prepare)

    def build_findings(self, system: BuildSystem, text: str, parsed: object,
                       options: Settings) -> list[Finding]:
        return hip_build(system, text, parsed, options)


def refuse_rewrite(jobs: Sequence[Job]) -> None:
    """The rewrite strategy writes nothing over a tree the compat strategy
    converted: its build files' CUDA side would become a second HIP side
    (one without the sources' LANGUAGE HIP: CMake cannot link it), and its
    sources would leave the NVIDIA build.  The files tell: a build file with
    the single-source switch, a header hipport generated."""
    for job in jobs:
        if not job.convert:
            continue
        if job.build_kind is not None:
            try:
                switched = BUILD_SWITCH_MARKER.encode() in job.source.read_bytes()
            except OSError:
                continue
            what = "its single-source build switch"
        else:
            switched, what = generated(job.source), "the header it generated"
        if switched:
            raise UsageError(
                f"{job.display} holds {what}: this tree was converted with --strategy compat, "
                "and the rewrite strategy would make the CUDA side of its build HIP too. "
                "Re-run with --strategy compat to bring it up to date; to leave CUDA behind, "
                "rewrite the CUDA sources from before the compat conversion instead (or leave "
                "such files out with --exclude)")
