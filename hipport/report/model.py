"""The report: one value built from a run's results, rendered by every format.

Formulas (docs/report.md): conversion rate = converted / (converted +
unconverted) references; reuse rate = original lines kept / lines."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from hipport.codes import CODES
from hipport.findings import LocatedFinding
from hipport.jobs import FileResult
from hipport.report.effort import STATUSES, EffortModel
from hipport.report.ledger import LedgerRow, build_ledger, reference_library
from hipport.report.strategies import StrategyRow
from hipport.runner import tally
from hipport.score import FileStats, conversion_rate, counted_reference, is_reference, reuse_rate
from hipport.table import MappingTable
from hipport.version import __version__
from hipport.words import plural

SCHEMA_ID = "hipport-report/1"
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

    @property
    def open(self) -> int:
        return self.count - self.fixed


@dataclass(frozen=True)
class EffortLine:
    item: str
    quantity: int
    basis: str
    days: float


@dataclass(frozen=True)
class Effort:
    lines: tuple[EffortLine, ...]
    subtotal: float
    contingency: float  # a fraction
    total: float
    assumptions: tuple[str, ...]

    @property
    def contingency_days(self) -> float:
        return self.total - self.subtotal


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
    version: str = __version__
    schema: str = field(default=SCHEMA_ID)


def _is_open(f: LocatedFinding) -> bool:
    return not f.applied and not is_reference(f.code)


def build_report(results: Iterable[FileResult], table: MappingTable, model: EffortModel, *,
                 paths: Iterable[str] = (), settings: Mapping[str, str] | None = None,
                 skipped: Iterable[str] = (),
                 strategies: Iterable[StrategyRow] = ()) -> Report:
    results = [r for r in results if r.stats.lines or r.findings]
    run = tally(results)
    skipped = tuple(skipped)
    files = tuple(sorted(
        (FileReport(r.display, r.outcome.value,
                    Tally.of(r.stats, sum(1 for f in r.findings if _is_open(f))), r.findings)
         for r in results), key=lambda f: f.path))
    ledger = build_ledger(files_findings(files), table, model, FIRST_LOCATIONS)
    groups = _finding_groups(files, model)
    totals = Tally.of(run.totals, sum(f.tally.open_findings for f in files), len(files))
    outcomes = {"converted": run.files_converted, "unchanged": run.files_unchanged,
                "failed": run.files_failed, "skipped": run.files_skipped + len(skipped)}
    return Report(
        paths=tuple(paths), settings=dict(settings or {}), totals=totals, outcomes=outcomes,
        files=files, directories=_directories(files), libraries=_libraries(files, table, ledger),
        ledger=ledger, findings=groups,
        effort=_effort(model, ledger, groups, totals, run.files_converted),
        skipped=skipped, strategies=tuple(strategies),
    )


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


def _finding_groups(files: tuple[FileReport, ...], model: EffortModel) -> tuple[FindingGroup, ...]:
    found: dict[str, tuple[list[int], set[str], list[str]]] = {}
    for path, f in files_findings(files):
        if is_reference(f.code):
            continue
        counts, paths, where = found.setdefault(f.code, ([0, 0], set(), []))
        counts[0] += 1
        counts[1] += f.applied
        paths.add(path)
        here = f"{path}:{f.location.line}"
        if len(where) < FIRST_LOCATIONS and here not in where:
            where.append(here)
    groups = []
    for code, ((count, fixed), paths, where) in sorted(found.items()):
        known = CODES.get(code)
        groups.append(FindingGroup(
            code, known.name if known else code.lower(), known.summary if known else "",
            known.severity.value if known else "warning", count, fixed, len(paths),
            tuple(where), (count - fixed) * model.finding_weight(code)))
    return tuple(groups)


def _effort(model: EffortModel, ledger: tuple[LedgerRow, ...], groups: tuple[FindingGroup, ...],
            totals: Tally, files_changed: int) -> Effort:
    lines: list[EffortLine] = []
    by_status: dict[str, list[LedgerRow]] = {}
    for row in ledger:
        by_status.setdefault(row.status, []).append(row)
    for status in STATUSES:
        rows = by_status.get(status, [])
        if not rows:
            continue
        uses = sum(r.occurrences for r in rows)
        lines.append(EffortLine(
            f"ledger: {status} APIs", len(rows),
            f"{model.per_api[status]:g}/API + {model.per_occurrence[status]:g}/use "
            f"x {plural(uses, 'use')}", sum(r.days for r in rows)))
    for g in groups:
        if g.open:
            lines.append(EffortLine(f"{g.code} {g.name}", g.open,
                                    f"{model.finding_weight(g.code):g}/finding", g.days))
    lines.append(EffortLine("review automatic conversions", totals.refs_converted,
                            f"{model.per_converted_reference:g}/reference",
                            totals.refs_converted * model.per_converted_reference))
    lines.append(EffortLine("build and test changed files", files_changed,
                            f"{model.per_converted_file:g}/file",
                            files_changed * model.per_converted_file))
    subtotal = sum(line.days for line in lines)
    return Effort(tuple(lines), subtotal, model.contingency, subtotal * (1 + model.contingency),
                  tuple(model.assumptions()))

