"""What a source tree needs from ROCm: the libraries, the headers and the
oldest ROCm release that has every API it uses.

CUDA code is read by the conversion pipeline itself (check mode, nothing
written): its findings carry the catalogue entries, whose HIP library and
``rocm_version: added`` say what the converted code will need.  HIP code
(already converted) is read with the same parser, looking for the
catalogue's HIP names and the ROCm libraries' include directories: the
catalogue maps both ways."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator, Sequence

from hipport.doctor.guards import Span, guarded_spans, inside
from hipport.doctor.libraries import BY_CUDA, library_of_include
from hipport.doctor.model import Version, at_least, format_version
from hipport.table import MappingTable, load_table
from hipport.table.names import CandidateNames
from hipport.table.schema import Status

if TYPE_CHECKING:
    from hipport.jobs import FileResult


@dataclass(frozen=True)
class Use:
    library: str  # a doctor.libraries key
    name: str  # the API or header
    where: str  # "path:line"
    rocm: Version | None  # the ROCm release that added it
    header: str | None = None  # a HIP header the code includes (or will)
    hip: bool = False  # found in HIP code (else: CUDA code that converts to it)
    guarded: bool = False  # under a version/platform #if: does not set the ROCm release


@dataclass(frozen=True)
class Need:
    library: str
    uses: int
    first: str  # "name (path:line)" of the first use
    min_rocm: Version | None = None
    because: str = ""  # "name (path:line)" of the use that sets min_rocm
    headers: tuple[str, ...] = ()


@dataclass(frozen=True)
class TreeNeeds:
    paths: tuple[str, ...]
    files: int
    cuda_uses: int
    hip_uses: int
    libraries: dict[str, Need] = field(default_factory=dict)

    @property
    def min_rocm(self) -> tuple[Version | None, str]:
        best: tuple[Version | None, str] = (None, "")
        for need in self.libraries.values():
            if need.min_rocm is not None and not at_least(best[0], need.min_rocm):
                best = (need.min_rocm, need.because)
        return best


def needs_of(paths: Sequence[Path], rules: Sequence[str] = ()) -> TreeNeeds:
    table = load_table(rules)
    sources, results = _run_check(paths, tuple(rules))
    guards: dict[str, list[Span]] = {}
    uses = list(hip_uses(sources, table, guards)) + list(cuda_uses(results, table, guards))
    return summarize(tuple(str(p) for p in paths), len(sources), uses)


def _run_check(paths: Sequence[Path], rules: tuple[str, ...]
               ) -> tuple[list[tuple[Path, str]], list[FileResult]]:
    """The pipeline in dry-run mode over the tree (nothing is written): the
    source files (path, display name) and the results for them."""
    from hipport.delivery import Mode
    from hipport.files import SOURCE_SUFFIXES, Selection
    from hipport.pipeline import execute, plan
    from hipport.request import Request
    from hipport.settings import Settings

    # .hip: the suffix of HIP sources in converted trees.
    selection = Selection(suffixes=(*SOURCE_SUFFIXES, ".hip"), build_files=False)
    planned = plan(Request(tuple(paths), Mode.DRY_RUN, Settings(stability_check=False),
                           selection, rules=rules, in_process_up_to=200))
    return [(j.source, j.display) for j in planned.jobs], execute(planned).results


def cuda_uses(results: Iterable[FileResult], table: MappingTable,
              guards: dict[str, list[Span]]) -> Iterator[Use]:
    for result in results:
        for located in result.findings:
            finding = located.finding
            mapping = table.lookup(finding.cuda_name) if finding.cuda_name else None
            if mapping is None or not mapping.status.converts or not mapping.hip:
                continue  # unmapped or unsupported: no ROCm library provides it
            library = BY_CUDA.get(mapping.library)
            if library is None:
                continue
            where = f"{result.display}:{located.location.line}"
            header = mapping.hip if mapping.kind == "header" else None
            if header is not None:
                owner = library_of_include(header)
                library = owner if owner is not None else library
            yield Use(library.key, mapping.cuda, where, _added(mapping.rocm_version), header,
                      guarded=inside(guards.get(result.display, []), finding.start))


def _added(versions: tuple[tuple[str, str], ...]) -> Version | None:
    from hipport.doctor.model import parse_version

    added = dict(versions).get("added")
    return parse_version(added) if added else None


def hip_index(table: MappingTable) -> dict[str, tuple[str, Version | None]]:
    """HIP name -> (library key, ROCm release that added it), from the
    catalogue read backwards."""
    index: dict[str, tuple[str, Version | None]] = {}
    for row in table.rows.values():
        cuda, hip, kind, library, status, rocm = row[0], row[1], row[2], row[3], row[4], row[10]
        # Names CUDA and HIP share (__syncthreads) say nothing about the code's
        # dialect, and C types (cusolver_int_t -> int) are everywhere.
        if not hip or hip == cuda or hip in _C_TYPES or kind == "header" \
                or status not in _CONVERTS:
            continue
        owner = BY_CUDA.get(library)
        if owner is None:
            continue
        added = _added(rocm)
        known = index.get(hip)
        if known is None or (added is not None and not at_least(added, known[1] or ())):
            index[hip] = (owner.key, added)
    return index


_CONVERTS = {s.value for s in Status if s.converts}
_C_TYPES = {"int", "unsigned", "long", "short", "char", "float", "double", "void", "bool",
            "size_t"}


def hip_uses(sources: Iterable[tuple[Path, str]], table: MappingTable,
             guards: dict[str, list[Span]]) -> Iterator[Use]:
    """HIP uses in ``sources``; fills ``guards`` (display -> guarded spans)."""
    from hipport.parse import get_backend

    index = hip_index(table)
    names = CandidateNames(frozenset(index))
    backend = get_backend("syntax")
    for path, display in sources:
        try:
            data = path.read_bytes()
        except OSError:
            continue  # the pipeline reports unreadable files
        analysis = backend.analyze(data, names, path)
        spans = guards[display] = guarded_spans(analysis.tree) if b"#if" in data else []
        for ref in analysis.references:
            found = index.get(ref.name)
            if found is not None:
                line = data.count(b"\n", 0, ref.start) + 1
                yield Use(found[0], ref.name, f"{display}:{line}", found[1], hip=True,
                          guarded=inside(spans, ref.start))
        for include in analysis.includes:
            library = library_of_include(include.target)
            if library is not None:
                line = data.count(b"\n", 0, include.start) + 1
                yield Use(library.key, include.target, f"{display}:{line}", None,
                          include.target, hip=True)


def summarize(paths: tuple[str, ...], files: int, uses: Iterable[Use]) -> TreeNeeds:
    grouped: dict[str, list[Use]] = {}
    cuda = hip = 0
    for use in uses:
        grouped.setdefault(use.library, []).append(use)
        hip += use.hip
        cuda += not use.hip
    needs = {}
    for library, items in sorted(grouped.items()):
        newest = None
        for use in items:
            if use.rocm is None or use.guarded:
                continue
            if newest is None or not at_least(newest.rocm, use.rocm):
                newest = use
        headers = tuple(sorted({u.header for u in items if u.header}))
        needs[library] = Need(library, len(items), f"{items[0].name} ({items[0].where})",
                              newest.rocm if newest else None,
                              f"{newest.name} ({newest.where})" if newest else "", headers)
    if needs and "hip" not in needs:  # every HIP program links the runtime
        first = next(iter(needs.values()))
        needs["hip"] = Need("hip", 0, first.first)
    return TreeNeeds(paths, files, cuda, hip, dict(sorted(needs.items())))


def describe(need: Need) -> str:
    text = f"{need.uses} use{'s' if need.uses != 1 else ''}, first {need.first}"
    if need.min_rocm is not None:
        text += f"; needs ROCm {format_version(need.min_rocm)}+ for {need.because}"
    return text
