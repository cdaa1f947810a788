"""The unmapped-API ledger: one row per CUDA API that the conversion leaves
for a person, with its status, uses, first locations and an action."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from hipport.codes import CODES
from hipport.diagnostics.model import Ledger
from hipport.findings import LocatedFinding
from hipport.report.effort import EffortModel
from hipport.table import MappingTable

# Codes that put an API in the ledger: those left unconverted, and the two
# "converted, but look at it" ones (a deprecated HIP target, an unsafe rename).
STATUS_BY_CODE = {c.code: c.ledger.value for c in CODES.values() if c.ledger is not None}

ACTIONS = {
    "unmapped": "Not in hipport's catalogue: check whether it is a CUDA API (then add a "
                "mapping with --rules) or a name of the project or a third-party library.",
    "unsupported": "No HIP equivalent: reimplement it or redesign the code around it.",
    "removed": "Removed from CUDA itself: move to its CUDA replacement, then convert that.",
    "deprecated": "Converted, but ROCm deprecates {hip}: plan its replacement.",
    "rocm-too-old": "{hip} needs a newer ROCm than the target: raise the target or keep a "
                    "fallback.",
    "review": "Rename to {hip} needs review: check the note, then convert with "
              "--unsafe-fixes or by hand.",
    "emulated": "No HIP equivalent, emulated by hipport_polyfills.h: read the fallback's "
                "semantics and cost in docs/polyfills.md.",
}
# Codes whose rows need another action than their status's.
ACTIONS_BY_CODE = {
    "HP218": "{hip} is MIOpen's, but not for the layout, mode or type these calls ask for "
             "(HP218 at each says which): rewrite them for one MIOpen has, then convert.",
}


@dataclass(frozen=True)
class LedgerRow:
    cuda_name: str
    library: str
    status: str
    code: str
    hip_name: str | None
    occurrences: int
    files: int
    locations: tuple[str, ...]  # the first few "file:line"
    note: str | None  # the catalogue's note
    action: str
    days: float
    priority: str  # high / medium / low, from days (see EffortModel.priority)
    paths: frozenset[str] = frozenset()  # every file it is used in
    blocker: bool = True  # left unconverted (the build stops), else converted with a caveat
    low: float = 0.0  # the days' range (EffortModel.bounds)
    high: float = 0.0


def reference_library(f: LocatedFinding) -> str:
    if f.finding.library:
        return f.finding.library
    # A name the catalogue does not know has no library; a known one without
    # a library is part of the language (__CUDA_ARCH__, __syncwarp ...).
    return "unknown" if CODES[f.code].ledger is Ledger.UNMAPPED else "language"


def build_ledger(findings: Iterable[tuple[str, LocatedFinding]], table: MappingTable,
                 model: EffortModel, first: int) -> tuple[LedgerRow, ...]:
    seen: dict[tuple[str, str], tuple[LocatedFinding, list[int], set[str], list[str]]] = {}
    for path, f in findings:
        status = STATUS_BY_CODE.get(f.code)
        if status is None:
            continue
        name = f.finding.cuda_name or f.finding.message
        _, uses, paths, where = seen.setdefault((name, status), (f, [0], set(), []))
        uses[0] += 1
        paths.add(path)
        here = f"{path}:{f.location.line}"
        if len(where) < first and here not in where:
            where.append(here)
    rows = []
    for (name, status), (f, (count,), paths, where) in seen.items():
        entry = table.lookup(name)
        hip = f.finding.hip_name or (entry.hip if entry is not None else None)
        days = model.ledger_days(status, count)
        blocker = CODES[f.code].work_left.blocker
        rows.append(LedgerRow(
            name, reference_library(f), status, f.code, hip, count, len(paths), tuple(where),
            entry.note if entry is not None else None,
            ACTIONS_BY_CODE.get(f.code, ACTIONS[status]).format(
                hip=f"`{hip}`" if hip else "the HIP name"),
            days, model.priority(days), frozenset(paths), blocker, *model.bounds(days, blocker)))
    return tuple(sorted(rows, key=lambda r: (-r.days, -r.occurrences, r.cuda_name, r.status)))
