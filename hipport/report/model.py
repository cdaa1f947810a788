"""The report: one value built from a run's results, rendered by every format.

Formulas (docs/report.md): conversion rate = converted / (converted +
unconverted) references; reuse rate = original lines kept / lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from hipport.codes import CODES
from hipport.diagnostics.model import Work
from hipport.findings import LocatedFinding
from hipport.jobs import FileResult
from hipport.report.built import BuildOutcome
from hipport.report.effort import EffortModel
from hipport.report.estimate import Effort, Group, estimate
from hipport.report.estimate import EffortLine as EffortLine  # re-exported
from hipport.report.ledger import LedgerRow, build_ledger, reference_library
from hipport.report.reach import Reach
from hipport.report.strategies import StrategyRow
from hipport.runner import tally
from hipport.score import FileStats, conversion_rate, counted_reference, is_reference, reuse_rate
from hipport.table import MappingTable
from hipport.version import __version__

SCHEMA_ID = "hipport-report/2"
FIRST_LOCATIONS = 5  # locations listed per ledger row or finding code


@dataclass(frozen=True)
class Tally:
    files: int = 0
    lines: int = 0
    refs_converted: int = 0
    refs_unconverted: int = 0
    open_findings: int = 0  # hazards and other non-reference findings left to a person
    edited_lines: int = 0  # original lines an edit changed; the others are kept

    @property
    def refs(self) -> int:
        return self.refs_converted + self.refs_unconverted

    @property
    def conversion_rate(self) -> float:
        return conversion_rate(self.refs_converted, self.refs_unconverted)

    @property
    def reuse_rate(self) -> float:
        return reuse_rate(self.edited_lines, self.lines)

    @property
    def unchanged_lines(self) -> int:
        """Original lines kept exactly as they were."""
        return self.lines - self.changed_lines

    @property
    def changed_lines(self) -> int:
        """Original lines an edit changed: ``lines - unchanged_lines`` (lines
        inserted whole between two others change neither of them)."""
        return min(self.edited_lines, self.lines)

    def plus(self, other: Tally) -> Tally:
        return Tally(self.files + other.files, self.lines + other.lines,
                     self.refs_converted + other.refs_converted,
                     self.refs_unconverted + other.refs_unconverted,
                     self.open_findings + other.open_findings,
                     self.edited_lines + other.edited_lines)

    @classmethod
    def of(cls, stats: FileStats, open_findings: int, files: int = 1) -> Tally:
        return cls(files, stats.lines, stats.refs_converted,
                   stats.refs_unconverted, open_findings, stats.edited_lines)


@dataclass(frozen=True)
class FileReport:
    path: str
    outcome: str
    tally: Tally
    findings: tuple[LocatedFinding, ...] = ()  # for SARIF; no file contents are kept
    built: bool = True  # a target of the build files reaches it (report/reach.py)


@dataclass(frozen=True)
class GroupRow:
    name: str  # a directory
    tally: Tally


@dataclass(frozen=True)
class LibraryRow:
    library: str
    rocm: str | None  # the ROCm counterpart (hipblas, miopen, ...), None if unknown
    files: int
    refs_converted: int
    refs_unconverted: int
    ledger_apis: int

    @property
    def refs(self) -> int:
        return self.refs_converted + self.refs_unconverted

    @property
    def conversion_rate(self) -> float:
        return conversion_rate(self.refs_converted, self.refs_unconverted)


@dataclass(frozen=True)
class FindingGroup:
    """All non-reference findings of one code: hazards, build work, tool problems."""

    code: str
    name: str
    summary: str
    severity: str
    count: int
    fixed: int  # fixed automatically by convert
    files: int
    locations: tuple[str, ...]
    days: float
    open_paths: frozenset[str] = frozenset()  # the files with an open finding of the code

    @property
    def open(self) -> int:
        return self.count - self.fixed


@dataclass(frozen=True)
class Coverage:
    """What the estimate covers: the files the build reaches, the rest apart."""

    basis: str  # what was read to decide (report/reach.py)
    every_file: bool  # no build file: every file is billed
    not_built_files: int = 0
    not_built_findings: int = 0
    not_built_lines: int = 0
    not_built_paths: tuple[str, ...] = ()  # the first few


@dataclass(frozen=True)
class Report:
    paths: tuple[str, ...]
    settings: Mapping[str, str]
    totals: Tally
    outcomes: Mapping[str, int]  # converted / unchanged / failed / skipped
    files: tuple[FileReport, ...]
    directories: tuple[GroupRow, ...]
    libraries: tuple[LibraryRow, ...]
    ledger: tuple[LedgerRow, ...]
    findings: tuple[FindingGroup, ...]
    effort: Effort
    skipped: tuple[str, ...] = ()  # "path: reason" for files not read at all
    # Both strategies side by side (rewrite, compat); empty when not measured.
    strategies: tuple[StrategyRow, ...] = ()
    coverage: Coverage = Coverage("no build files read", True)
    version: str = __version__
    schema: str = field(default=SCHEMA_ID)


def _is_open(f: LocatedFinding) -> bool:
    return not f.applied and not is_reference(f.code)


def build_report(results: Iterable[FileResult], table: MappingTable, model: EffortModel, *,
                 paths: Iterable[str] = (), settings: Mapping[str, str] | None = None,
                 skipped: Iterable[str] = (),
                 strategies: Iterable[StrategyRow] = (),
                 reach: Reach | None = None, named: Mapping[str, Path] | None = None,
                 outcome: BuildOutcome | None = None) -> Report:
    """``reach``: the files the build reaches (None: every file counts), the
    report's names mapped to the files by ``named``; ``outcome``: what a
    build of the converted tree left (``--verify``)."""
    results = [r for r in results if r.stats.lines or r.findings]
    run = tally(results)
    skipped = tuple(skipped)

    def is_built(name: str) -> bool:
        path = (named or {}).get(name)
        return reach is None or path is None or reach.reaches(path)

    files = tuple(sorted(
        (FileReport(r.display, r.outcome.value,
                    Tally.of(r.stats, sum(1 for f in r.findings if _is_open(f))), r.findings,
                    is_built(r.display))
         for r in results), key=lambda f: f.path))
    built = [f for f in files if f.built]
    ledger = build_ledger(files_findings(built), table, model, FIRST_LOCATIONS)
    groups = _finding_groups(built, model)
    totals = Tally.of(run.totals, sum(f.tally.open_findings for f in files), len(files))
    outcomes = {"converted": run.files_converted, "unchanged": run.files_unchanged,
                "failed": run.files_failed, "skipped": run.files_skipped + len(skipped)}
    changed = [f.path for f in built if f.outcome == "converted"]
    effort = estimate(model, ledger, [Group(g.code, g.name, g.open, g.open_paths, g.locations,
                                            g.days) for g in groups], changed, outcome,
                      sum(f.tally.refs_converted for f in built))
    return Report(
        paths=tuple(paths), settings=dict(settings or {}), totals=totals, outcomes=outcomes,
        files=files, directories=_directories(files), libraries=_libraries(files, table, ledger),
        ledger=ledger, findings=groups, effort=effort,
        skipped=skipped, strategies=tuple(strategies), coverage=_coverage(files, reach),
    )


def _coverage(files: tuple[FileReport, ...], reach: Reach | None) -> Coverage:
    if reach is None or reach.built is None:
        return Coverage(reach.basis if reach is not None else "every file", True)
    apart = [f for f in files if not f.built]
    return Coverage(reach.basis, False, len(apart),
                    sum(f.tally.open_findings + f.tally.refs_unconverted for f in apart),
                    sum(f.tally.lines for f in apart),
                    tuple(f.path for f in apart[:FIRST_LOCATIONS]))


def files_findings(files: Iterable[FileReport]) -> Iterable[tuple[str, LocatedFinding]]:
    return ((f.path, finding) for f in files for finding in f.findings)


def directory_of(path: str) -> str:
    # Paths are POSIX names as ``filenames.shown`` escapes them: a backslash
    # starts an escape (``k\\xff``), it never separates directories.
    return path.rsplit("/", 1)[0] if "/" in path else "."


def _directories(files: tuple[FileReport, ...]) -> tuple[GroupRow, ...]:
    by_dir: dict[str, Tally] = {}
    for f in files:
        d = directory_of(f.path)
        by_dir[d] = by_dir.get(d, Tally()).plus(f.tally)
    return tuple(GroupRow(d, t) for d, t in sorted(by_dir.items()))


def _libraries(files: tuple[FileReport, ...], table: MappingTable,
               ledger: tuple[LedgerRow, ...]) -> tuple[LibraryRow, ...]:
    counts: dict[str, list[int]] = {}  # library -> [converted, unconverted]
    users: dict[str, set[str]] = {}
    for path, f in files_findings(files):
        # The same split as FileStats.of, so library rows add up to the totals.
        converted = counted_reference(f)
        if converted is None:
            continue
        lib = reference_library(f)
        counts.setdefault(lib, [0, 0])[0 if converted else 1] += 1
        users.setdefault(lib, set()).add(path)
    rocm = {m.library: m.hip_library for m in table}
    rocm["language"] = "hip"
    apis: dict[str, int] = {}
    for row in ledger:
        apis[row.library] = apis.get(row.library, 0) + 1
    rows = [LibraryRow(lib, rocm.get(lib), len(users.get(lib, ())), c, u, apis.get(lib, 0))
            for lib, (c, u) in counts.items() if c or u]
    return tuple(sorted(rows, key=lambda r: (-r.refs, r.library)))


def _finding_groups(files: Iterable[FileReport], model: EffortModel) -> tuple[FindingGroup, ...]:
    found: dict[str, tuple[list[int], set[str], set[str], list[str], list[str]]] = {}
    for path, f in files_findings(files):
        if is_reference(f.code):
            continue
        counts, paths, open_paths, where, where_open = found.setdefault(
            f.code, ([0, 0], set(), set(), [], []))
        counts[0] += 1
        counts[1] += f.applied
        paths.add(path)
        here = f"{path}:{f.location.line}"
        for places in (where, *(() if f.applied else (where_open,))):
            if len(places) < FIRST_LOCATIONS and here not in places:
                places.append(here)
        if not f.applied:
            open_paths.add(path)
    groups = []
    for code, ((count, fixed), paths, open_paths, all_places, where) in sorted(found.items()):
        where = where or all_places  # the open ones first: where the work is
        known = CODES.get(code)
        groups.append(FindingGroup(
            code, known.name if known else code.lower(), known.summary if known else "",
            known.severity.value if known else "warning", count, fixed, len(paths),
            tuple(where), finding_days(model, code, count - fixed, len(open_paths)),
            frozenset(open_paths)))
    return tuple(groups)


def finding_days(model: EffortModel, code: str, open_findings: int, files: int) -> float:
    """A blocker code is billed per open finding, a review code per file it
    is open in, a code that leaves nothing to do not at all."""
    work = work_of(code)
    if work is Work.NONE or not open_findings:
        return 0.0
    return model.finding_weight(code) * (open_findings if work.blocker else files)


def work_of(code: str) -> Work:
    known = CODES.get(code)
    return known.work_left if known is not None else Work.REVIEW
