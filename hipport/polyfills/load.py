"""The bundled fallbacks (mappings/polyfills/*.yaml, read with
importlib.resources like the catalogue) and the checks across files."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from typing import Iterable, Iterator

from hipport.errors import MappingFileError
from hipport.polyfills.model import Fallback, Family
from hipport.polyfills.schema import parse_polyfill_file
from hipport.table import POLYFILLS_DIR
from hipport.table.schema import parse_version


@dataclass(frozen=True)
class Polyfills:
    """Every fallback, in a stable order: files by name, entries as written."""

    families: tuple[Family, ...]
    by_id: dict[str, Fallback] = field(default_factory=dict, compare=False, repr=False)
    by_name: dict[str, Fallback] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for family in self.families:
            for fallback in family.fallbacks:
                self.by_id[fallback.id] = fallback
                for name in fallback.cuda_names:
                    self.by_name[name] = fallback

    def __iter__(self) -> Iterator[Fallback]:
        for family in self.families:
            yield from family.fallbacks

    def closure(self, wanted: Iterable[Fallback]) -> tuple[Fallback, ...]:
        """``wanted`` and every fallback they require, each after what it
        requires, otherwise in the bundled order (the same set, the same order)."""
        position = {f.id: i for i, f in enumerate(self)}
        done: dict[str, Fallback] = {}

        def visit(fallback: Fallback) -> None:
            if fallback.id in done:
                return
            for dependency in sorted(fallback.requires, key=position.__getitem__):
                visit(self.by_id[dependency])
            done[fallback.id] = fallback

        for fallback in sorted(set(wanted), key=lambda f: position[f.id]):
            visit(fallback)
        return tuple(done.values())


def merge(families: Iterable[Family]) -> Polyfills:
    """The families as one set; ids and names unique across files, every
    requirement known, acyclic, and no better or older than what needs it."""
    ids: dict[str, Fallback] = {}
    names: dict[str, Fallback] = {}
    ordered = tuple(families)
    for family in ordered:
        for fallback in family.fallbacks:
            _unique(ids, fallback.id, fallback, "id")
            for name in fallback.cuda_names:
                _unique(names, name, fallback, "CUDA name")
    for fallback in ids.values():
        for dependency in fallback.requires:
            if dependency not in ids:
                raise _fail(fallback, f"requires {dependency!r}, which no polyfill file defines")
    for fallback in ids.values():
        _check_acyclic(fallback, ids, ())
    for fallback in ids.values():
        for dependency in fallback.requires:
            _check_requirement(fallback, ids[dependency])
    required = {d for f in ids.values() for d in f.requires}
    for fallback in ids.values():
        if not fallback.names and fallback.id not in required:
            raise _fail(fallback, "has no names and no fallback requires it")
    return Polyfills(ordered)


def _fail(fallback: Fallback, message: str) -> MappingFileError:
    path, line = fallback.origin.rsplit(":", 1)
    return MappingFileError(path, f"{fallback.id}: {message}", int(line))


def _unique(seen: dict[str, Fallback], key: str, fallback: Fallback, what: str) -> None:
    previous = seen.setdefault(key, fallback)
    if previous is not fallback:
        raise _fail(fallback, f"duplicate {what} {key!r} (also at {previous.origin})")


def _check_requirement(fallback: Fallback, dependency: Fallback) -> None:
    name = dependency.id
    if dependency.exactness.rank > fallback.exactness.rank:
        raise _fail(fallback, f"is {fallback.exactness.value} but requires {name!r}, which is "
                    f"only {dependency.exactness.value}")
    if dependency.rocm.needs is not None and (
            fallback.rocm.needs is None or
            parse_version(dependency.rocm.needs) > parse_version(fallback.rocm.needs)):
        raise _fail(fallback, f"requires {name!r}, which needs ROCm {dependency.rocm.needs}; "
                    "say so in rocm.needs")


def _check_acyclic(fallback: Fallback, ids: dict[str, Fallback], path: tuple[str, ...]) -> None:
    if fallback.id in path:
        cycle = " -> ".join(path[path.index(fallback.id):] + (fallback.id,))
        raise _fail(fallback, f"requires itself: {cycle}")
    for dependency in fallback.requires:
        _check_acyclic(ids[dependency], ids, path + (fallback.id,))


def parse_files(files: Iterable[tuple[str, str]]) -> Polyfills:
    """(path, text) pairs -> the validated set."""
    return merge(parse_polyfill_file(text, path) for path, text in files)


@functools.lru_cache(maxsize=1)
def bundled_polyfills() -> Polyfills:
    root = resources.files("hipport") / "_mappings" / POLYFILLS_DIR
    if not root.is_dir():
        raise MappingFileError(str(root), "the bundled polyfill files are missing "
                               "(a broken installation: reinstall hipport)")
    files = sorted((child.name, child) for child in root.iterdir()
                   if child.name.endswith((".yaml", ".yml")))
    return parse_files((f"mappings/{POLYFILLS_DIR}/{name}", node.read_text(encoding="utf-8"))
                       for name, node in files)
