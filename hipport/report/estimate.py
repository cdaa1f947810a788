"""The estimate's line items: blockers first, then review, each with its
days (low, likely, high) and where it is (hipport.report.effort has the
formulas).

Static basis: the findings of the files the build reaches.  Built basis
(``--verify``): the errors a build of the converted tree left, one line per
cause; the findings that would stop the build are then kept only where the
build did not judge them (a file that did not compile hides its later
errors), and those that change results or need review stay as they are."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from hipport.codes import CODES
from hipport.diagnostics.model import Category, Work
from hipport.report.built import STAGES, BuildOutcome
from hipport.report.effort import STATUSES, EffortModel
from hipport.report.ledger import LedgerRow
from hipport.words import plural

FIRST_LOCATIONS = 5
# Next steps' order: what stops the build first, then what changes results.
STAGE_ORDER = (*STAGES, "results", "review")


@dataclass(frozen=True)
class EffortLine:
    """One line of the estimate: what it is, where, and its days."""

    item: str
    quantity: int
    basis: str  # how the days follow from the quantity
    days: float  # likely
    kind: str = "review"  # a code's Work: breaks-build, changes-results, review
    stage: str = "review"  # configure, compile, link, results, review: Next steps' order
    low: float = 0.0
    high: float = 0.0
    locations: tuple[str, ...] = ()  # the first few "file:line"
    hint: str = ""  # the command that says more, or what to do

    @property
    def blocker(self) -> bool:
        return self.kind != "review"


@dataclass(frozen=True)
class Effort:
    lines: tuple[EffortLine, ...]
    subtotal: float  # the likely days before contingency
    contingency: float  # a fraction
    total: float  # likely
    assumptions: tuple[str, ...]
    low: float = 0.0
    high: float = 0.0
    basis: str = "static"  # static: from the findings; built: from a build (--verify)
    basis_detail: str = ""  # what the basis was, in a sentence

    @property
    def contingency_days(self) -> float:
        return self.total - self.subtotal

    @property
    def blocker_days(self) -> float:
        return sum(line.days for line in self.lines if line.blocker)


@dataclass(frozen=True)
class Group:
    """An open finding code, as the estimate needs it."""

    code: str
    name: str
    open: int
    paths: frozenset[str]
    locations: tuple[str, ...]
    days: float


def estimate_lines(model: EffortModel, ledger: Sequence[LedgerRow], groups: Iterable[Group],
                   changed_files: Sequence[str], outcome: BuildOutcome | None,
                   converted_refs: int = 0) -> list[EffortLine]:
    lines: list[EffortLine] = []

    def still_open(paths: Iterable[str], locations: tuple[str, ...], stage: str,
                   name: str = "") -> tuple[str, ...] | None:
        """Where a finding that stops the build is still to be fixed, after
        the build (None: nowhere; the build compiled those files, ran the
        build files, or reported the name itself, which its error bills)."""
        if outcome is None:
            return locations
        if stage == "configure":
            return None if outcome.build_files else locations
        if name and any(name in error.message for error in outcome.errors):
            return None
        left = {p for p in paths if p not in outcome.passed}
        if not left:
            return None
        return tuple(place for place in locations if place.rsplit(":", 1)[0] in left) \
            or locations

    for row in ledger:
        work = CODES[row.code].work_left
        places = still_open(row.paths, row.locations, "compile", row.cuda_name) \
            if work.blocker else None
        if places is None:
            continue
        lines.append(_line(model, f"{row.cuda_name}: {row.status} API", row.occurrences,
                           f"{model.per_api[row.status]:g}/API + "
                           f"{model.per_occurrence[row.status]:g}/use x "
                           f"{plural(row.occurrences, 'use')}", row.days, work,
                           "compile", places, f"hipport mappings show {row.cuda_name}"))
    for g in groups:
        code = CODES.get(g.code)
        work = code.work_left if code is not None else Work.REVIEW
        if not g.open or work is Work.NONE or g.days <= 0:
            continue
        stage = _stage(g.code, work)
        places = still_open(g.paths, g.locations, stage) if work is Work.BREAKS_BUILD \
            else g.locations
        if places is None:
            continue
        per = "finding" if work.blocker else "file"
        quantity = g.open if work.blocker else len(g.paths)
        lines.append(_line(model, f"{g.code} {g.name}", quantity,
                           f"{model.finding_weight(g.code):g}/{per}", g.days, work, stage,
                           places, f"hipport explain {g.code}"))
    if outcome is not None:
        lines += _build_error_lines(model, outcome)
    review = [row for row in ledger if not CODES[row.code].work_left.blocker]
    for status in STATUSES:
        rows = [row for row in review if row.status == status]
        if rows:
            uses = sum(r.occurrences for r in rows)
            lines.append(_line(model,
                f"{plural(len(rows), 'API')} converted with a caveat ({status})", len(rows),
                f"{model.per_api[status]:g}/API + {model.per_occurrence[status]:g}/use x "
                f"{plural(uses, 'use')}", sum(r.days for r in rows), Work.REVIEW, "review",
                tuple(r.locations[0] for r in rows[:FIRST_LOCATIONS] if r.locations),
                "hipport report -f csv (the ledger)"))
    if changed_files:
        lines.append(_line(model, "review and test the files the conversion changes",
                          len(changed_files), f"{model.per_converted_file:g}/file",
                          len(changed_files) * model.per_converted_file, Work.REVIEW, "review",
                          tuple(changed_files[:FIRST_LOCATIONS]), "hipport convert --diff"))
    if converted_refs and model.per_converted_reference:
        lines.append(_line(model, "review the automatic conversions one by one", converted_refs,
                           f"{model.per_converted_reference:g}/reference",
                           converted_refs * model.per_converted_reference, Work.REVIEW,
                           "review", (), "hipport convert --diff"))
    return sorted(lines, key=lambda line: (STAGE_ORDER.index(line.stage), -line.days,
                                           line.item))


def _stage(code: str, work: Work) -> str:
    known = CODES.get(code)
    if known is not None and known.category is Category.BUILD and work.blocker:
        return "configure"
    return {Work.BREAKS_BUILD: "compile", Work.CHANGES_RESULTS: "results"}.get(work, "review")


def _build_error_lines(model: EffortModel, outcome: BuildOutcome) -> list[EffortLine]:
    causes: dict[tuple[str, str], list[str]] = {}
    seen: set[str] = set()  # one cause per place: the host and device passes of a
    for error in outcome.errors:  # unit word the same problem differently
        if error.where and error.where in seen:
            continue
        seen.add(error.where)
        places = causes.setdefault((error.stage, error.cause), [])
        places.append(error.where)
    lines = []
    for (stage, cause), places in causes.items():
        named = [p for p in places if p]
        lines.append(_line(model, f"build error: {cause}", len(places),
                          f"{model.per_build_error:g}/cause + "
                          f"{model.per_build_error_location:g}/further place",
                          model.build_error_days(len(places)), Work.BREAKS_BUILD, stage,
                          tuple(named[:FIRST_LOCATIONS]), _api_hint(cause)))
    return lines


def _api_hint(cause: str) -> str:
    """The command that says more about the CUDA name an error names."""
    for word in cause.replace("'", " ").replace("`", " ").split():
        if word.startswith(("cuda", "cu", "CU")) and word.isidentifier():
            return f"hipport mappings show {word}"
    return "the compiler's message"




def _line(model: EffortModel, item: str, quantity: int, basis: str, days: float, work: Work,
          stage: str, locations: tuple[str, ...], hint: str) -> EffortLine:
    low, high = model.bounds(days, work.blocker)
    return EffortLine(item, quantity, basis, days, work.value, stage, low, high, locations, hint)


def estimate(model: EffortModel, ledger: Sequence[LedgerRow], groups: Iterable[Group],
             changed_files: Sequence[str], outcome: BuildOutcome | None = None,
             converted_refs: int = 0) -> Effort:
    detail = ("static: from hipport's findings in the files the build reaches, without "
              "compiling")
    if outcome is not None and not (outcome.passed or outcome.failed or outcome.errors
                                    or outcome.build_files):
        detail = f"static: the build judged nothing ({outcome.how})"
        outcome = None
    lines = tuple(estimate_lines(model, ledger, groups, changed_files, outcome, converted_refs))
    subtotal = sum(line.days for line in lines)
    grow = 1 + model.contingency
    basis = "static" if outcome is None else "built"
    if outcome is not None:
        detail = f"built: {outcome.how}"
    return Effort(lines, subtotal, model.contingency, subtotal * grow, tuple(model.assumptions()),
                  sum(line.low for line in lines) * grow, sum(line.high for line in lines) * grow,
                  basis, detail)
