"""A conversion strategy: what the run makes of each source and build file,
and what it adds at the end (a generated header).

``pipeline.plan`` asks the request's strategy to plan the run once (it may
refuse, drop jobs, and resolve its own settings), then every job is
converted by the planned strategy and the run ends with its ``finish``
step.  The strategies: ``RewriteStrategy`` (``hipport.rewrite``: CUDA
becomes HIP) and ``CompatStrategy`` (``hipport.compat``: the code stays
CUDA, a generated header maps it for AMD); ``hipport.strategies`` names
them for the command line."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Protocol

from hipport.buildfiles import BuildSystem
from hipport.convert import ConversionResult
from hipport.delivery import Mode
from hipport.files import Selection
from hipport.findings import Finding
from hipport.jobs import FileResult, Job
from hipport.parse.model import Backend
from hipport.settings import Settings
from hipport.table import MappingTable


@dataclass(frozen=True)
class Tree:
    """What a strategy plans a run over (nothing is written yet)."""

    paths: tuple[Path, ...]  # as the user named them
    roots: tuple[Path, ...]  # their folders, resolved
    mode: Mode
    output: Path | None  # -o DIR, resolved
    jobs: tuple[Job, ...]
    selection: Selection
    rules: tuple[str, ...]  # user mapping files
    settings: Settings


# The run-level step: every file's result in, the results with what the
# strategy adds (a generated header) out.
Finish = Callable[[list[FileResult]], list[FileResult]]


@dataclass(frozen=True)
class Generated:
    """A file the run generates (it has no source in the input)."""

    path: Path  # where it lives in the input tree
    target: Path | None  # where the run writes it (None: nowhere)
    display: str
    # What a user whose folder for it cannot be written can do.
    way_out: str = "make the folder writable"


@dataclass(frozen=True)
class StrategyPlan:
    strategy: Strategy  # with what planning resolved: every file is converted with it
    jobs: tuple[Job, ...]
    finish: Finish | None = None
    generated: tuple[Generated, ...] = ()


class Strategy(Protocol):
    """One way to convert.  A strategy is a frozen dataclass (its fields are
    its settings, part of every cache key) registered in
    ``hipport.strategies``."""

    name: ClassVar[str]  # as --strategy names it
    # What a run that changed nothing says of the references it found done.
    settled: ClassVar[str]

    def plan(self, tree: Tree) -> StrategyPlan:
        """Refuse what the strategy cannot do (a ``UsageError``), choose its
        jobs and resolve its settings; write nothing."""
        ...

    def convert_source(self, data: bytes, backend: Backend, table: MappingTable,
                       settings: Settings, path: Path | None) -> ConversionResult:
        """One source (``data`` is text: unreadable bytes never get here)."""
        ...

    def build_findings(self, system: BuildSystem, text: str, parsed: object,
                       options: Settings) -> list[Finding]:
        """One build file, read by its system: the findings to apply."""
        ...
