"""The run-level step of the compat strategy: the names every file used
make the header, which is then written, diffed or compared with the one on
disk (a name the code uses that the header does not map: HP311)."""
from __future__ import annotations

from dataclasses import replace

from hipport.codes import CODES
from hipport.compat import HEADER_STALE
from hipport.compat.header import Uses, covered_names, render
from hipport.compat.place import HeaderPlace, refuse_unless_ours
from hipport.delivery import Mode, WriteFailed, unified_diff
from hipport.findings import Finding, LocatedFinding
from hipport.rules.cuda_version import VERSION_TEST
from hipport.rules.guards import GUARD_TEST
from hipport.rules.hazards.launch_bounds import MIN_BLOCKS
from hipport.runner import FileResult, Outcome
from hipport.settings import DEFAULT_CUDA_VERSION
from hipport.table import Mapping, MappingTable
from hipport.writing import write_atomic

STALE = HEADER_STALE


def uses_of(results: list[FileResult], table: MappingTable) -> Uses:
    """Names a file's finding counts as converted are mapped; the others
    (no HIP equivalent, unknown, a rename that needs review) are listed."""
    uses = Uses()
    left: dict[str, str] = {}
    for result in results:
        for located in result.findings:
            name = located.finding.cuda_name
            if located.code == VERSION_TEST:
                uses.version_tests = True
            if located.code == MIN_BLOCKS:
                uses.launch_bounds = True
            if name is None or located.code == STALE:
                continue
            if located.code == GUARD_TEST and located.finding.hip_name is not None:
                uses.guards[name] = located.finding.hip_name
                continue
            entry = table.lookup(name)
            hip = located.finding.hip_name
            if entry is None and located.applied and hip is not None:  # a hazard's rename
                entry = Mapping(name, hip, "macro", "runtime",
                                origin=f"{located.code} {located.finding.name}")
            if located.applied and entry is not None:
                uses.entries[name] = entry
            elif CODES[located.code].ledger is not None:
                left.setdefault(name, CODES[located.code].name)
    uses.left = {n: why for n, why in left.items()
                 if n not in uses.entries and n not in uses.guards}
    return uses


def finish(results: list[FileResult], table: MappingTable, place: HeaderPlace, mode: Mode,
           macro: str, cuda_version: tuple[int, int] = DEFAULT_CUDA_VERSION) -> list[FileResult]:
    """The results with the header's own appended (and, when nothing is
    written, HP311 where the header on disk misses a name)."""
    text = render(uses_of(results, table), macro, place.path.name, cuda_version)
    old = place.path.read_bytes() if place.path.is_file() else None
    changed = old != text
    diff = ""
    if mode is Mode.DRY_RUN:
        covered = covered_names(old or b"")
        wanted = covered_names(text)
        results = [_stale(r, wanted - covered, place.display) for r in results]
    elif mode is Mode.DIFF and changed:
        diff = unified_diff(old or b"", text, place.display)
    elif place.target is not None and (changed or mode is Mode.MIRROR):
        refuse_unless_ours(place.target, True)  # still (it was, when the run was planned)
        current = place.target.read_bytes() if place.target.is_file() else None
        if current != text:
            try:
                place.target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(place.target, text)
            except OSError as exc:
                raise WriteFailed(f"cannot write {place.target}: {exc.strerror}") from None
    outcome = Outcome.CONVERTED if changed else Outcome.UNCHANGED
    return [*results, FileResult(place.display, outcome, diff=diff)]


def _stale(result: FileResult, missing: set[str], header: str) -> FileResult:
    extra = []
    seen: set[str] = set()
    for located in result.findings:
        name = located.finding.cuda_name
        if name is None or name not in missing or name in seen or not located.applied:
            continue
        seen.add(name)
        finding = Finding(STALE, f"`{name}` is not mapped by {header}; re-run `hipport convert "
                          "--strategy compat` to regenerate it", located.finding.start,
                          located.finding.end, cuda_name=name)
        extra.append(LocatedFinding(finding, located.location, located.end_location, False))
    return replace(result, findings=result.findings + tuple(extra)) if extra else result
