"""The run-level step of the compat strategy: the names every file used
make the header, which is then written, diffed or compared with the one on
disk (a name the code uses that the header does not map: HP311)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hipport.codes import CODES
from hipport.compat import HEADER_STALE
from hipport.compat.header import Uses, covered_names, forwarder, merged, read_uses, render
from hipport.compat.place import HeaderPlace, refuse_unless_ours
from hipport.delivery import Mode, WriteFailed, unified_diff
from hipport.findings import Finding, LocatedFinding
from hipport.jobs import FileResult, Outcome
from hipport.rules.cuda_version import VERSION_TEST
from hipport.rules.emulation import APPLIED_CODES, served_overloads, target_text
from hipport.rules.guards import GUARD_TEST
from hipport.rules.hazards.launch_bounds import MIN_BLOCKS
from hipport.settings import Settings
from hipport.table import Mapping, MappingTable
from hipport.writing import write_atomic

STALE = HEADER_STALE


def uses_of(results: list[FileResult], table: MappingTable,
            settings: Settings | None = None) -> Uses:
    """Names a file's finding counts as converted are mapped; the others
    (no HIP equivalent, unknown, a rename that needs review) are listed.
    With ``settings``, a mapped name whose HIP function the polyfills add
    CUDA 13's overloads to (a file that builds a cudaMemLocation) also gets
    its fallback."""
    uses = Uses()
    left: dict[str, str] = {}
    for result in results:
        if settings is not None:
            uses.polyfills |= served_overloads(
                (f.finding.cuda_name for f in result.findings
                 if f.applied and f.finding.cuda_name), settings)
        for located in result.findings:
            name = located.finding.cuda_name
            if located.code == VERSION_TEST:
                uses.version_tests = True
            if located.code == MIN_BLOCKS:
                uses.launch_bounds = True
            if name is None or located.code == STALE:
                continue
            if located.code in APPLIED_CODES:  # a fallback of the polyfills emulates it
                uses.polyfills.add(name)
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
           macro: str, settings: Settings = Settings()) -> list[FileResult]:
    """The results with the header's own appended (and, when nothing is
    written, HP311 where the header on disk misses a name)."""
    old = _read(place.path)
    nested = [_read(n.source) or b"" for n in place.nested]
    # Names other files of the tree need are never dropped: those the header
    # maps when only part of its tree was converted, and those of the headers
    # that become forwarders.
    earlier = [read_uses(t, table) for t in ([old] if place.keep and old else []) + nested]
    text = render(merged(*earlier, uses_of(results, table, settings)), macro, place.path.name,
                  settings.assume_cuda_version, target_text(settings), settings.polyfills)
    if mode is Mode.DRY_RUN:
        covered = covered_names(old or b"")
        wanted = covered_names(text)
        results = [_stale(r, wanted - covered, place.display) for r in results]
    out = [*results, _deliver(place.display, old, text, place.target, mode)]
    for n, before in zip(place.nested, nested):
        out.append(_deliver(n.display, before, forwarder(n.include, n.source.name), n.target,
                            mode))
    return out


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError as exc:
        raise WriteFailed(f"cannot read {path}: {exc.strerror}") from None


def _deliver(display: str, old: bytes | None, text: bytes, target: Path | None,
             mode: Mode) -> FileResult:
    """A generated header, written, diffed or only compared as the mode says."""
    changed = old != text
    diff = ""
    if mode is Mode.DIFF and changed:
        diff = unified_diff(old or b"", text, display)
    elif target is not None and mode in (Mode.IN_PLACE, Mode.MIRROR) and (
            changed or mode is Mode.MIRROR):
        refuse_unless_ours(target, True)  # still (it was, when the run was planned)
        current = target.read_bytes() if target.is_file() else None
        if current != text:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, text)
            except OSError as exc:
                raise WriteFailed(f"cannot write {target}: {exc.strerror}") from None
    return FileResult(display, Outcome.CONVERTED if changed else Outcome.UNCHANGED, diff=diff,
                      generated=True)


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
