"""The polyfill header in the rewrite strategy: each source that uses an API
it emulates includes it (HP707), and the run writes one per folder named,
with the fallbacks its files use (docs/polyfills.md, "Where the header goes").

A header's place is the top of its folder or, for a folder converted again
on its own, the tree's header above it (``hipport.header_place``, shared with
compat); with ``-o DIR``, the same place in the output tree.  Like compat's
header it is only ever written over a file hipport generated, never through
a symbolic link, and what it holds is the union of what the run needs and
what the header there already emulates: converting part of a tree never
takes a fallback from the other files."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from hipport.convert import Scan
from hipport.delivery import Mode, WriteFailed, unified_diff
from hipport.edits import Edit, Fix
from hipport.filenames import display_path
from hipport.files import Selection
from hipport.findings import Finding
from hipport.header_place import HeaderKind, below, locate, refuse_unless_ours, relative
from hipport.jobs import FileResult, Job, Outcome
from hipport.parse.model import Reference
from hipport.polyfills import (
    DEFAULT_HEADER,
    FORWARDERS,
    MARKER,
    Exactness,
    bundled_polyfills,
    covered_names,
    render,
    select,
)
from hipport.rules.emulation import APPLIED_CODES, needs_header, served_overloads, target_text
from hipport.settings import Settings
from hipport.source import newline_of
from hipport.table import MappingTable
from hipport.writing import write_atomic

INCLUDED = "HP707"
RUNTIME = "hip/hip_runtime.h"
RUNTIME_ADDED = "HP306"


def include_target(header: str, path: Path | None) -> str:
    """How ``path`` names ``header`` (absolute once planned): relative to
    its folder, '/'-separated."""
    if not header or path is None:
        return Path(header or DEFAULT_HEADER).name
    rel = os.path.relpath(header, os.path.dirname(os.path.abspath(path)))
    return Path(rel).as_posix()


def overload_uses(scan: Scan, settings: Settings) -> list[Reference]:
    """Calls of a HIP function the header adds CUDA 13's overloads to, in a
    file that builds their ``cudaMemLocation`` argument: the file needs the
    header although the names convert as usual."""
    references = scan.analysis.references
    served = served_overloads((r.name for r in references), settings)
    return [r for r in references if r.name in served]


_HIP_LOCATION = re.compile(rb"\bhipMemLocation")


@functools.lru_cache(maxsize=1)
def _overloaded() -> tuple[tuple[str, re.Pattern[bytes]], ...]:
    """(CUDA name, a call of the HIP function it overloads) for each name
    whose fallback adds a signature to a HIP function."""
    return tuple((n.cuda, re.compile(rb"\b" + re.escape(n.overloads.encode()) + rb"\s*\("))
                 for f in bundled_polyfills() for n in f.names if n.overloads)


def converted_overload_uses(data: bytes, settings: Settings) -> list[Finding]:
    """In a file converted before (it includes the header already), CUDA 13's
    calls with a memory location are HIP names now: one finding a call the
    header must still serve, so that a second run (after an interrupted
    one, or with the header deleted) writes the header the first would.
    Read from the text: a match in a comment only keeps a guarded fallback."""
    if _HIP_LOCATION.search(data) is None:
        return []
    return [Finding(INCLUDED, f"`{m.group().rstrip(b'( ').decode()}` with a memory location "
                    "uses the signature the header adds", m.start(), m.end() - 1,
                    cuda_name=cuda)
            for cuda, call in _overloaded() if needs_header(cuda, settings)
            for m in call.finditer(data)]


def _includes(scan: Scan, name: str) -> bool:
    return any(Path(i.target).name == name and not i.system for i in scan.analysis.includes)


@dataclass(frozen=True)
class IncludeHeader:
    """The per-source step (``convert.Prepare``): the emulated uses share one
    fix, the include of the header."""

    header: str  # absolute once planned ("" : beside the file)
    table: MappingTable
    settings: Settings
    path: Path | None

    def __call__(self, data: bytes, scan: Scan) -> tuple[list[Finding], frozenset[int]]:
        findings = scan.findings
        emulated = [f for f in findings if f.code in APPLIED_CODES]
        # (an emulated header's include is removed by its own fix)
        overloads = overload_uses(scan, self.settings)
        if _includes(scan, Path(self.header or DEFAULT_HEADER).name):
            # included already (a converted file's calls are HIP's by now)
            served = [] if overloads else converted_overload_uses(data, self.settings)
            return [*findings, *served], frozenset(
                id(f) for f in [*emulated, *served] if f.fix is None)
        if not emulated and not overloads:
            return findings, frozenset()
        target = include_target(self.header, self.path)
        newline = newline_of(data)
        line = f'#include "{target}"'.encode() + newline
        runtime = next((f for f in findings if f.code == RUNTIME_ADDED and f.fix is not None),
                       None)
        if runtime is not None:  # the runtime include is being added: the header follows it
            assert runtime.fix is not None
            at = runtime.fix.start
            fix = Fix((Edit(at, at, runtime.fix.edits[0].text + line),),
                      title=f"Include <{RUNTIME}> and {target}")
        else:
            at = self._after_runtime_include(data, scan)
            fix = Fix((Edit(at, at, line),), title=f"Include {target}")
        uses = sorted({f.cuda_name or "" for f in emulated} | {r.name for r in overloads})
        included = Finding(INCLUDED, f'includes "{target}" (it emulates {", ".join(uses)})',
                           at, at, fix=fix)
        out = [replace(f, fix=fix) if (f.code in APPLIED_CODES and f.fix is None) or f is runtime
               else f for f in findings]
        return [*out, included], frozenset()

    def _after_runtime_include(self, data: bytes, scan: Scan) -> int:
        """After the line of the first include that is (or becomes) HIP's
        runtime, else where a new include goes."""
        for inc in sorted(scan.analysis.includes, key=lambda i: i.start):
            entry = self.table.lookup(inc.target)
            final = entry.hip if entry is not None and entry.kind == "header" else inc.target
            if final == RUNTIME and not inc.conditional:
                return inc.line_end
        at = scan.analysis.include_insertion
        return at if at is not None else 0


POLYFILL_HEADER = HeaderKind(MARKER, FORWARDERS.target, "the polyfill header",
                             "convert with --polyfills none")


@dataclass(frozen=True)
class Nested:
    """A header generated for part of the place's tree before (a folder
    converted on its own): it becomes a forwarder to the place's."""

    source: Path
    target: Path | None  # where the forwarder is written (None: nowhere)
    display: str
    include: str  # the place's header, relative to this one's folder


@dataclass(frozen=True)
class HeaderPlace:
    path: Path  # in the input tree
    target: Path | None  # where the run writes it (None: nowhere)
    display: str
    scopes: tuple[Path, ...]  # the paths named (resolved) whose files include it
    nested: tuple[Nested, ...] = ()


@dataclass(frozen=True)
class Places:
    """The run's headers, and which one each job's file includes."""

    places: tuple[HeaderPlace, ...]
    jobs: tuple[Job, ...]  # the run's jobs, less the headers
    owners: tuple[int, ...]  # for each job, its place's index (-1: none)
    claims: tuple[tuple[Path, int], ...]  # (a path named, its place's index), in order

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """(a path named, its header), in the order named, for ``RewriteStrategy``."""
        return tuple((str(s), str(self.places[i].path)) for s, i in self.claims)


def plan_places(paths: tuple[Path, ...], mode: Mode, out: Path | None,
                jobs: tuple[Job, ...], selection: Selection) -> Places:
    """One header per folder named (docs/polyfills.md): the files of a
    folder named never include another folder's header, so each tree builds
    on its own.  A folder inside another one named shares its header; in
    place, the header is the one of the folder or, when it has none, the one
    generated above it (a subfolder converted again finds its tree's).  A
    file there hipport did not generate, or a link, is refused before
    anything is written."""
    scopes = list(dict.fromkeys(p.resolve() for p in paths))
    folders = list(dict.fromkeys(s if s.is_dir() else s.parent for s in scopes))
    mirror = mode is Mode.MIRROR
    writes = mode in (Mode.IN_PLACE, Mode.MIRROR)
    if not mirror:  # a folder inside another named shares the outer one's header
        folders = [f for f in folders if not any(f != o and f.is_relative_to(o) for o in folders)]
    located: dict[Path, Path] = {}
    targets: dict[Path, Path | None] = {}
    for folder in folders:
        # An -o tree is whole by itself: its header is never a folder above it.
        path = locate(folder / DEFAULT_HEADER, POLYFILL_HEADER, writes=writes and not mirror,
                      search=not mirror)
        target: Path | None = path if mode is Mode.IN_PLACE else None
        if mirror and out is not None:
            target = out / (folder.name if len(paths) > 1 else "") / DEFAULT_HEADER
            refuse_unless_ours(target, POLYFILL_HEADER, True, " (in the output directory)")
        located[folder] = path
        targets.setdefault(path, target)
    by_path: dict[Path, list[Path]] = {}
    for scope in scopes:
        own = scope if scope.is_dir() else scope.parent
        top = own if mirror else next(f for f in folders if own.is_relative_to(f))
        by_path.setdefault(located[top], []).append(scope)
    headers = set(by_path)
    kept = [j for j in jobs if j.source.resolve() not in headers]
    kept, nested = _nested(list(by_path), kept, mode, selection, paths)
    order = list(by_path)
    places = tuple(HeaderPlace(p, targets[p], display_path(p), tuple(by_path[p]),
                               tuple(nested.get(p, ()))) for p in order)
    claims = tuple((s, order.index(p)) for s in scopes for p in order if s in by_path[p])
    owners = tuple(_owner(claims, j.source) for j in kept)
    return Places(places, tuple(kept), owners, claims)


def _owner(claims: tuple[tuple[Path, int], ...], source: Path) -> int:
    """The place of the first path named that holds ``source`` (the one its
    job came from: a file named twice runs once, from the first)."""
    for scope, index in claims:
        if source == scope or source.is_relative_to(scope):
            return index
    return -1


def header_for(pairs: tuple[tuple[str, str], ...], path: Path | None) -> str:
    """The header ``path`` includes ("": beside it, when no run planned one)."""
    if path is not None:
        for scope, header in pairs:
            if path == Path(scope) or path.is_relative_to(scope):
                return header
    return ""


def _nested(headers: list[Path], jobs: list[Job], mode: Mode, selection: Selection,
            paths: tuple[Path, ...]) -> tuple[list[Job], dict[Path, list[Nested]]]:
    """The jobs less the full headers generated below a place's folder, and
    those headers, which become forwarders: the run's and, when only part of
    the place's tree is converted, those the folders below it hold."""
    def place_of(source: Path) -> Path | None:
        inside = [h for h in headers if source.parent.is_relative_to(h.parent)]
        return max(inside, key=lambda h: len(h.parts)) if inside else None

    nested: dict[Path, list[Nested]] = {}
    kept: list[Job] = []
    for job in jobs:
        source = job.source.resolve()
        place = place_of(source) if job.convert and job.build_kind is None else None
        if place is None or POLYFILL_HEADER.full(job.source) is None:
            kept.append(job)
            continue
        if mode is Mode.MIRROR and job.target is not None:
            refuse_unless_ours(job.target, POLYFILL_HEADER, True, " (in the output directory)")
        nested.setdefault(place, []).append(
            Nested(source, job.target, job.display, relative(place, source)))
    if mode in (Mode.IN_PLACE, Mode.DIFF):
        folders = [p.resolve() for p in paths if p.is_dir()]
        for place in headers:
            if not (selection.include or selection.exclude) and any(
                    place.parent.is_relative_to(f) for f in folders):
                continue  # the whole tree is converted: its headers are jobs
            known = {n.source for n in nested.get(place, ())} | set(headers)
            nested.setdefault(place, []).extend(
                Nested(p, p if mode is Mode.IN_PLACE else None, display_path(p),
                       relative(place, p)) for p in below(place, POLYFILL_HEADER)
                if p not in known and place_of(p) == place)
    return kept, nested


@dataclass(frozen=True)
class WriteHeader:
    """The run-level step: each place's header for the names its files use,
    written, diffed or only compared as the mode says; the headers
    generated below it become forwarders."""

    places: Places
    mode: Mode
    settings: Settings

    def __call__(self, results: list[FileResult]) -> list[FileResult]:
        owners = self.places.owners
        if len(owners) != len(results):  # cannot happen: one result per job, in order
            owners = (-1,) * len(results)
        out = list(results)
        for index, place in enumerate(self.places.places):
            mine = [r for r, o in zip(results, owners) if o in (index, -1)]
            out += self._place(place, mine)
        return out

    def _place(self, place: HeaderPlace, results: list[FileResult]) -> list[FileResult]:
        used = {f.finding.cuda_name for r in results for f in r.findings
                if f.applied and f.finding.cuda_name and (
                    f.code in APPLIED_CODES or needs_header(f.finding.cuda_name, self.settings))}
        old = _read(place.path)
        earlier = covered_names(old) if old is not None else set()
        for nested in place.nested:  # what the files including them need
            earlier |= covered_names(_read(nested.source) or b"")
        names = used | earlier
        allowed = [Exactness(a) for a in self.settings.polyfills]
        target = target_text(self.settings)
        if not select(names, target, allowed):
            return []
        text = render(names, target, allowed)
        return [self._deliver(place.display, place.target, old, text),
                *(self._deliver(n.display, n.target, _read(n.source),
                                FORWARDERS.text(n.include, n.source.name))
                  for n in place.nested)]

    def _deliver(self, display: str, target: Path | None, old: bytes | None,
                 text: bytes) -> FileResult:
        changed = old != text
        diff = ""
        mode = self.mode
        if mode is Mode.DIFF and changed:
            diff = unified_diff(old or b"", text, display)
        elif target is not None and mode in (Mode.IN_PLACE, Mode.MIRROR):
            current = _read(target)
            if current != text:
                refuse_unless_ours(target, POLYFILL_HEADER, True)
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(target, text)
                except OSError as exc:
                    raise WriteFailed(f"cannot write {target}: {exc.strerror}") from None
        outcome = Outcome.CONVERTED if changed else Outcome.UNCHANGED
        return FileResult(display, outcome, diff=diff, generated=True)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() else None
    except OSError as exc:
        raise WriteFailed(f"cannot read {path}: {exc.strerror}") from None
