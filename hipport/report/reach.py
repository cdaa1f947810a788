"""Which files the build reaches: the sources of the targets the build files
declare (each build system says, ``BuildSystem.targets``), or the units of a
``compile_commands.json``, and every local header they include, followed
through the including file's folder and the target's include directories
(conditions ignored: a header some configuration includes is reached).

The effort estimate bills only these; the rest of the tree is reported apart
("not built").  A tree without build files is billed whole, and so is one
whose build files name no target hipport can read (a target made by a
function of a package outside the tree): its CUDA sources then count
themselves, rather than nothing."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from hipport.buildfiles import build_systems
from hipport.buildfiles.system import BuildSystem, BuildTarget
from hipport.parse import compdb
from hipport.words import plural

COMPDB_NAME = "compile_commands.json"
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)
_SKIPPED_FOLDERS = frozenset({"CMakeFiles", "__pycache__", "node_modules"})
_INCLUDE_FLAGS = ("-I", "-iquote", "-isystem", "-idirafter")
_CUDA_SUFFIXES = frozenset({".cu", ".cuh"})


@dataclass(frozen=True)
class Reach:
    """``built``: the files the build reaches (None: no build file was found,
    every file counts); ``basis``: what that was decided from."""

    built: frozenset[Path] | None
    basis: str
    targets: int = 0

    def reaches(self, path: Path) -> bool:
        return self.built is None or path in self.built


def build_reach(roots: Sequence[Path]) -> Reach:
    """The reach of the build files under ``roots`` (folders, or files named
    one by one, which always count)."""
    found = _Found()
    for root in roots:
        root = root.resolve()
        if not root.is_dir():
            found.named.add(root)
            continue
        database = next((p for p in (root / COMPDB_NAME, root / "build" / COMPDB_NAME)
                         if p.is_file()), None)
        if database is not None:
            found.database(database, root)
        else:
            found.build_files(root)
    if not found.targets and not found.read:
        return Reach(None, "no build files (CMake, Make) and no compile_commands.json: the "
                           "estimate covers every file")
    if not found.targets and not found.whole:
        # Billing only the build files would bill the CUDA code nothing.
        return Reach(None, f"no target could be read from {plural(len(found.read), 'build file')}"
                           f" ({', '.join(sorted(found.systems))}), so every source counts "
                           f"({plural(found.cuda_sources, 'CUDA file')})")
    built = found.closure() | found.named | set(found.read)
    return Reach(frozenset(built), found.basis(), len(found.targets))


@dataclass
class _Found:
    targets: list[BuildTarget] = field(default_factory=list)
    read: list[Path] = field(default_factory=list)  # build files read
    systems: set[str] = field(default_factory=set)
    named: set[Path] = field(default_factory=set)
    databases: list[Path] = field(default_factory=list)
    whole: list[Path] = field(default_factory=list)  # folders counted whole
    cuda_sources: int = 0  # .cu and .cuh files seen under the roots

    def database(self, path: Path, root: Path) -> None:
        try:
            entries = compdb.load(path)
        except compdb.CompileDatabaseError:
            self.build_files(root)
            return
        self.databases.append(path)
        for source, flags in entries.items():
            dirs = tuple(Path(flags[k + 1]) for k, flag in enumerate(flags[:-1])
                         if flag in _INCLUDE_FLAGS)
            self.targets.append(BuildTarget(source.name, path, (source,), dirs))

    def build_files(self, root: Path) -> None:
        systems = build_systems().values()
        entries: list[tuple[Path, BuildSystem]] = []
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders
                                   if not d.startswith(".") and d not in _SKIPPED_FOLDERS)
            self.cuda_sources += sum(1 for n in names
                                     if os.path.splitext(n)[1].lower() in _CUDA_SUFFIXES)
            for system in systems:
                try:
                    entries += [(p, system) for p in system.files_in(Path(folder))]
                except OSError:
                    continue
        for path, system in entries:  # parents first: a subproject is read from its parent
            path = _real(path)
            if path in self.read:
                continue
            read = system.targets(path, root)
            self.systems.add(system.title)
            if read is None:
                self.read.append(path)
                self.whole.append(path.parent)
                continue
            self.read += [p for p in read.read if p not in self.read] or [path]
            if path not in self.read:
                self.read.append(path)
            self.targets += read.targets

    def basis(self) -> str:
        if self.databases:
            return f"{plural(len(self.targets), 'unit')} of " + ", ".join(
                p.name for p in self.databases)
        return (f"{plural(len(self.targets), 'target')} of {plural(len(self.read), 'build file')}"
                f" ({', '.join(sorted(self.systems))}) and the headers they include")

    def closure(self) -> set[Path]:
        complete = {t.build_file.parent for t in self.targets if t.complete}
        reached: set[Path] = set()
        includes: dict[Path, list[tuple[bytes, str]]] = {}
        for target in self.targets:
            seeds = list(target.sources)
            if not target.complete and target.build_file.parent not in complete:
                seeds += _files_under(target.build_file.parent)
            reached |= _include_closure(seeds, target.include_dirs, includes)
        for folder in self.whole:
            reached |= set(_files_under(folder))
        return reached


def _files_under(folder: Path) -> list[Path]:
    found = []
    for here, subfolders, files in os.walk(folder):
        subfolders[:] = [d for d in subfolders if not d.startswith(".")]
        found += [_real(Path(here, name)) for name in files]
    return found


def _real(path: Path) -> Path:
    """``path`` resolved; a loop of symbolic links (which ``Path.resolve``
    raises for, before Python 3.13) stays as it is: it never reaches a file."""
    return Path(os.path.realpath(path))


def _include_closure(seeds: Iterable[Path], dirs: Sequence[Path],
                     cache: dict[Path, list[tuple[bytes, str]]]) -> set[Path]:
    seen: set[Path] = set()
    todo = [_real(p) for p in seeds]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path not in cache:
            cache[path] = _includes(path)
        for quote, name in cache[path]:
            found = _resolve(name, path.parent if quote == b'"' else None, dirs)
            if found is not None and found not in seen:
                todo.append(found)
    return seen


def _includes(path: Path) -> list[tuple[bytes, str]]:
    try:
        with path.open("rb") as handle:
            data = handle.read(4 << 20)
    except OSError:
        return []
    return [(m[1], os.fsdecode(m[2].strip())) for m in _INCLUDE.finditer(data)]


def _resolve(name: str, here: Path | None, dirs: Sequence[Path]) -> Path | None:
    for folder in ([here] if here is not None else []) + list(dirs):
        candidate = folder / name
        try:
            if candidate.is_file():
                return candidate.resolve()
        except OSError:
            continue
    return None
