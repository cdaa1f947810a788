"""The polyfill header in the rewrite strategy: each source that uses an API
it emulates includes it (HP707), and the run writes it once per tree, with
the fallbacks the tree uses (docs/polyfills.md).

The header's place is the top of the (first) folder converted, in the
input tree and, with ``-o DIR``, at the same place in the output tree.
Like compat's header it is only ever written over a file hipport generated,
never through a symbolic link, and what it holds is the union of what the
run needs and what the header there already emulates: converting part of a
tree never takes a fallback from the other files."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from hipport.convert import Scan
from hipport.delivery import Mode, WriteFailed, unified_diff
from hipport.edits import Edit, Fix
from hipport.errors import UsageError
from hipport.filenames import display_path, shown_path
from hipport.findings import Finding
from hipport.jobs import FileResult, Outcome
from hipport.parse.model import Reference
from hipport.polyfills import (
    DEFAULT_HEADER,
    Exactness,
    bundled_polyfills,
    covered_names,
    is_generated,
    render,
    select,
)
from hipport.rules.emulation import APPLIED_CODES, needs_header, target_text
from hipport.settings import Settings
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
    if not any(r.name.startswith(_LOCATION) for r in references):
        return []
    return [r for r in references if needs_header(r.name, settings)]


_LOCATION = "cudaMemLocation"
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
        newline = b"\r\n" if b"\r\n" in data else b"\n"
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


@dataclass(frozen=True)
class HeaderPlace:
    path: Path  # in the input tree
    target: Path | None  # where the run writes it (None: nowhere)
    display: str


def plan_place(roots: tuple[Path, ...], paths: tuple[Path, ...], mode: Mode,
               out: Path | None) -> HeaderPlace:
    """Where the tree's header is and is written; a file there hipport did
    not generate, or a link, is refused before anything is written."""
    path = roots[0] / DEFAULT_HEADER
    target: Path | None = None
    if mode is Mode.IN_PLACE:
        target = path
    elif mode is Mode.MIRROR and out is not None:
        target = out / (roots[0].name if len(paths) > 1 else "") / DEFAULT_HEADER
    for place in {path, target} - {None}:
        assert place is not None
        _refuse_unless_ours(place, writes=place == target)
    return HeaderPlace(path, target, display_path(path))


def _refuse_unless_ours(path: Path, writes: bool) -> None:
    try:
        if path.is_symlink():
            if writes:
                raise UsageError(f"{shown_path(path)} is a symbolic link; hipport never "
                                 "replaces one with the polyfill header (remove it, or "
                                 "convert with --polyfills none)")
            return
        if path.exists() and not (path.is_file() and is_generated(_head(path))):
            raise UsageError(f"{shown_path(path)} exists and was not generated by hipport; "
                             "remove it, or convert with --polyfills none")
    except OSError as exc:
        raise UsageError(f"{shown_path(path)}: {exc.strerror}") from None


def _head(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(64)


@dataclass(frozen=True)
class WriteHeader:
    """The run-level step: the header for the names the tree uses, written,
    diffed or only compared as the mode says."""

    place: HeaderPlace
    mode: Mode
    settings: Settings

    def __call__(self, results: list[FileResult]) -> list[FileResult]:
        used = {f.finding.cuda_name for r in results for f in r.findings
                if f.applied and f.finding.cuda_name and (
                    f.code in APPLIED_CODES or needs_header(f.finding.cuda_name, self.settings))}
        old = self._read(self.place.path)
        earlier = covered_names(old) if old is not None else set()
        names = used | earlier
        allowed = [Exactness(a) for a in self.settings.polyfills]
        target = target_text(self.settings)
        if not select(names, target, allowed):
            return results
        text = render(names, target, allowed)
        return [*results, self._deliver(old, text)]

    @staticmethod
    def _read(path: Path) -> bytes | None:
        try:
            return path.read_bytes() if path.is_file() else None
        except OSError as exc:
            raise WriteFailed(f"cannot read {path}: {exc.strerror}") from None

    def _deliver(self, old: bytes | None, text: bytes) -> FileResult:
        changed = old != text
        diff = ""
        target, mode = self.place.target, self.mode
        if mode is Mode.DIFF and changed:
            diff = unified_diff(old or b"", text, self.place.display)
        elif target is not None and mode in (Mode.IN_PLACE, Mode.MIRROR):
            current = self._read(target)
            if current != text:
                _refuse_unless_ours(target, writes=True)
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_atomic(target, text)
                except OSError as exc:
                    raise WriteFailed(f"cannot write {target}: {exc.strerror}") from None
        outcome = Outcome.CONVERTED if changed else Outcome.UNCHANGED
        return FileResult(self.place.display, outcome, diff=diff, generated=True)


