"""The compat strategy as a plug-in (``hipport.strategy``): sources keep
their CUDA code and include the generated header, build files get a HIP
switch beside the CUDA build, and the run ends by writing the header."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar, Mapping

from hipport.buildfiles import BuildSystem
from hipport.compat.macro import macro_name
from hipport.compat.place import HeaderPlace, choose_macro, plan_header
from hipport.compat.sources import convert_compat
from hipport.compat.tree import finish
from hipport.convert import ConversionResult
from hipport.delivery import Mode
from hipport.filenames import display_path
from hipport.findings import Finding
from hipport.jobs import FileResult
from hipport.parse.model import Backend
from hipport.settings import Settings
from hipport.strategy import Generated, StrategyPlan, Tree
from hipport.table import MappingTable, load_table


@dataclass(frozen=True)
class CompatStrategy:
    name: ClassVar[str] = "compat"
    settled: ClassVar[str] = "mapped by the compat header"
    # --compat-header (absolute once planned; "": the tree's hip_compat.h).
    header: str = ""
    # --compat-macro: the macro that selects the AMD build ("": the
    # platform's; None: not given, the one of the header on disk once planned).
    macro: str | None = None
    # Macros the wraps of CUDA includes test that are re-spelled for ``macro``
    # (the one a tree's header used before another was given).
    respelled: tuple[str, ...] = ()

    def plan(self, tree: Tree) -> StrategyPlan:
        header, jobs, place = plan_header(self.header, tree.paths, list(tree.roots), tree.mode,
                                          tree.output, list(tree.jobs), tree.selection,
                                          display_path)
        macro, respelled = choose_macro(self.macro, place)
        planned = replace(self, header=str(header), macro=macro, respelled=respelled)
        step = HeaderStep(place, tree.mode, macro, tree.settings, tree.rules)
        # The forwarders too: their folders must be writable, and an -o
        # tree's are no stale files.
        generated = (Generated(place.path, place.target, place.display),
                     *(Generated(n.source, n.target, n.display) for n in place.nested))
        return StrategyPlan(planned, tuple(jobs), step, generated)

    def convert_source(self, data: bytes, backend: Backend, table: MappingTable,
                       settings: Settings, path: Path | None) -> ConversionResult:
        return convert_compat(data, backend, table, settings, path, self.header, self.macro,
                              self.respelled)

    def build_findings(self, system: BuildSystem, text: str, parsed: object,
                       options: Settings) -> list[Finding]:
        findings = system.hip_findings(text, parsed, options, keep_names=True)
        return system.single_source(text, parsed, findings, self.macro or "")


@dataclass(frozen=True)
class HeaderStep:
    """The run-level step: the names every file used make the header, which
    is then written, diffed or compared with the one on disk."""

    place: HeaderPlace
    mode: Mode
    macro: str
    settings: Settings
    rules: tuple[str, ...]

    def __call__(self, results: list[FileResult]) -> list[FileResult]:
        return finish(results, load_table(self.rules).in_mode(self.settings.roc), self.place,
                      self.mode, self.macro, self.settings)


def compat_options(given: Mapping[str, str | None]) -> CompatStrategy:
    """The strategy from ``--compat-header`` and ``--compat-macro``."""
    return CompatStrategy(header=given.get("--compat-header") or "",
                          macro=macro_name(given.get("--compat-macro")))
