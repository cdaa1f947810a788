"""Which files of a converted tree are translation units, and the flags each
is compiled with.

With a ``compile_commands.json`` (named with ``-p``, or at the top of the
tree or in its ``build/`` folder) its entries are the units and their
include paths, macros and standard are kept (``parse.compdb``); entries
that name the CUDA tree the database was made from are found again in the
converted tree by their path below the common folder.  Without one, the
units are the ``.hip`` and ``.cu`` files (converted output keeps the CUDA
names) and the C++ sources that include a HIP header, themselves or through
the tree's headers (``Reach``); headers never are.
Flags then come from the build files (``buildflags``)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from hipport.buildfiles.project import Configuration
from hipport.errors import UsageError
from hipport.parse import compdb
from hipport.verify.buildflags import is_file, split_language, tree_flags, unreadable

HIP_SUFFIXES = frozenset({".hip", ".cu"})
CXX_SUFFIXES = frozenset({".cpp", ".cc", ".cxx", ".c++", ".C"})
COMPDB_NAME = "compile_commands.json"
_HIP_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]hip/", re.MULTILINE)
_ANY_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]", re.MULTILINE)
_DEPTH = 4
_SKIPPED_FOLDERS = frozenset({"CMakeFiles", "__pycache__", "node_modules"})
_PATH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter", "-include")
_CUDA_MARK = "cuda_runtime_api.h"
Rebase = Callable[[Path], "Path | None"]


@dataclass(frozen=True)
class Unit:
    path: Path  # absolute
    flags: tuple[str, ...]  # include paths, macros, standard
    flags_from: str  # "compile_commands.json", "build files", "none"
    # As its build compiles it: "hip", or "c++" for a C++ source the build
    # compiles with its C++ compiler (hipport.buildfiles.languages).
    language: str = "hip"


def includes_hip(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return _HIP_INCLUDE.search(handle.read(1 << 20)) is not None
    except OSError:
        return False


def is_unit(path: Path) -> bool:
    if path.suffix in HIP_SUFFIXES:
        return True
    return path.suffix in CXX_SUFFIXES and includes_hip(path)


class Reach:
    """Whether a C++ source reaches a HIP header through the tree's own
    headers (``main.cpp`` -> ``"helper.h"`` -> ``<hip/hip_runtime.h>``), each
    include looked for beside the file that names it, then in the include
    folders; ``_DEPTH`` levels at most, each header read once."""

    def __init__(self) -> None:
        self._known: dict[Path, bool] = {}

    def __call__(self, path: Path, folders: Sequence[Path] = (), depth: int = _DEPTH) -> bool:
        if path in self._known:
            return self._known[path]
        self._known[path] = False  # an include cycle ends here
        try:
            with path.open("rb") as handle:
                data = handle.read(1 << 20)
        except OSError:
            return False
        found = _HIP_INCLUDE.search(data) is not None
        if not found and depth > 0:
            for match in _ANY_INCLUDE.finditer(data):
                name = match[1].decode("latin-1")
                header = next((b / name for b in (path.parent, *folders)
                               if is_file(b / name)), None)
                if header is not None and self(header.resolve(), folders, depth - 1):
                    found = True
                    break
        self._known[path] = found
        return found


def _include_folders(flags: Sequence[str]) -> list[Path]:
    return [Path(flags[i + 1]) for i in range(len(flags) - 1)
            if flags[i] in ("-I", "-isystem", "-iquote")]


def _walk(root: Path) -> Iterator[Path]:
    if is_file(root):
        yield root.resolve()
        return
    for folder, subfolders, files in os.walk(root, onerror=_refuse):  # never follows links
        subfolders[:] = sorted(d for d in subfolders
                               if not d.startswith(".") and d not in _SKIPPED_FOLDERS)
        for name in sorted(files):
            path = Path(folder, name)
            if is_file(path):
                yield path.resolve()


def _refuse(error: OSError) -> None:
    raise unreadable(error.filename or "a folder", error)


def find_database(paths: Sequence[Path], given: Path | None) -> Path | None:
    if given is not None:
        return given / COMPDB_NAME if given.is_dir() else given
    for root in paths:
        if root.is_dir():
            for candidate in (root / COMPDB_NAME, root / "build" / COMPDB_NAME):
                if is_file(candidate):
                    return candidate
    return None


def unit_paths(paths: Sequence[Path]) -> list[Path]:
    """The units under ``paths``, without their flags (a header is looked
    for beside the file that includes it only)."""
    reach = Reach()
    return sorted({path for root in paths for path in _walk(root)
                   if is_unit(path) or path.suffix in CXX_SUFFIXES and reach(path)})


def find_units(paths: Sequence[Path], database: Path | None = None,
               configuration: Configuration = Configuration()) -> list[Unit]:
    """The units under ``paths`` (folders or files), in path order, with the
    flags their build files give them configured with ``configuration``."""
    db = find_database(paths, database)
    if db is not None:
        return _database_units(db, [p.resolve() for p in paths])
    units: dict[Path, Unit] = {}
    reach = Reach()
    for root in paths:
        top = root.resolve() if root.is_dir() else root.resolve().parent
        for path in _walk(root):
            if path in units or (path.suffix not in HIP_SUFFIXES | CXX_SUFFIXES):
                continue
            found, language = split_language(tree_flags(path, top, configuration))
            if is_unit(path) or reach(path, _include_folders(found)):
                units[path] = Unit(path, tuple(found), "build files" if found or language
                                   else "none", language or "hip")
    return sorted(units.values(), key=lambda u: u.path)


def _database_units(db: Path, roots: list[Path]) -> list[Unit]:
    entries = compdb.load(db)
    rebase = _rebaser(list(entries), roots)
    units: dict[Path, Unit] = {}
    for source, flags in entries.items():
        path = rebase(source)
        if path is None or path in units or not path.is_file() or not is_unit(path):
            continue
        units[path] = Unit(path, tuple(_rebased_flags(flags, rebase)), COMPDB_NAME)
    if entries and not units:
        raise UsageError(f"{db} lists {len(entries)} file{'s' if len(entries) != 1 else ''}, "
                         "none of them a HIP translation unit in "
                         + ", ".join(str(r) for r in roots)
                         + " (a database of another tree? name the right one with -p)")
    return sorted(units.values(), key=lambda u: u.path)


def _rebaser(sources: list[Path], roots: list[Path]) -> Rebase:
    """Maps a path of the database to the converted tree: as it is when it
    lies under one of ``roots``, else by the longest tail of its path found
    under a root (the database was made in the CUDA tree)."""
    moved: tuple[Path, Path] | None = None
    for source in sources:
        if any(source.is_relative_to(r) for r in roots):
            continue
        for k in range(len(source.parts) - 1, 0, -1):
            tail = Path(*source.parts[-k:])
            hit = next((r for r in roots if (r / tail).is_file()), None)
            if hit is not None:
                moved = (Path(*source.parts[:-k]), hit)
                break
        if moved is not None:
            break

    def rebase(path: Path) -> Path | None:
        if any(path.is_relative_to(r) for r in roots):
            return path
        if moved is not None and path.is_relative_to(moved[0]):
            return moved[1] / path.relative_to(moved[0])
        return None

    return rebase


def _rebased_flags(flags: tuple[str, ...], rebase: Rebase) -> Iterator[str]:
    i = 0
    while i < len(flags):
        flag = flags[i]
        if flag in _PATH_FLAGS and i + 1 < len(flags):
            value = Path(flags[i + 1])
            moved = rebase(value) if value.is_absolute() else None
            i += 2
            if (value / _CUDA_MARK).is_file():  # the CUDA toolkit's headers: not for hipcc
                continue
            yield flag
            yield str(moved) if moved is not None else str(value)
            continue
        yield flag
        i += 1
