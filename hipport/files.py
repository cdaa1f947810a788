"""Choosing the files of a tree: source suffixes, include/exclude globs, and
the paths hipport refuses to follow."""
from __future__ import annotations

import errno
import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from hipport.buildfiles.system import system_for
from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.writing import is_temporary

SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".cxx", ".cc", ".c", ".h", ".hpp", ".hxx", ".hh",
                   ".inl", ".inc", ".tpp", ".cu.inc")
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".hipport-cache", ".toolchain"})


@dataclass(frozen=True)
class SourcePath:
    root: Path  # the directory the user named (or the file's parent)
    path: Path  # absolute path of the file
    is_source: bool  # selected for conversion (others are only mirrored)
    link: bool = False  # a symlink to a file inside the tree (never rewritten in place)

    @property
    def relative(self) -> Path:
        return self.path.relative_to(self.root)


@dataclass(frozen=True)
class Selection:
    include: Sequence[str] = ()
    exclude: Sequence[str] = ()
    suffixes: Sequence[str] = SOURCE_SUFFIXES
    build_files: bool = True  # CMakeLists.txt, *.cmake, Makefiles

    def selects(self, rel: str) -> bool:
        name = rel.rsplit("/", 1)[-1]
        if any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in self.exclude):
            return False
        if self.include:
            return any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in self.include)
        return name.endswith(tuple(self.suffixes)) or self.build_kind(name) is not None

    def build_kind(self, name: str) -> str | None:
        system = system_for(name) if self.build_files else None
        return system.name if system is not None else None


@dataclass(frozen=True)
class Skipped:
    path: Path
    reason: str
    leftover: bool = False  # a temporary file of a killed run (``hipport.writing``)


def discover(paths: Sequence[Path], selection: Selection, *, with_others: bool = False,
             avoid: Path | None = None) -> Iterator[SourcePath | Skipped]:
    """Files under ``paths``, in a stable order.  Symlinks leaving their root are
    not followed; devices and fifos are skipped; temporary files a killed run
    left behind come as ``Skipped(..., leftover=True)``.  With ``with_others``,
    files that are not selected sources are listed too (for mirroring a tree)."""
    for given in paths:
        if not given.exists() and not given.is_symlink():
            raise UsageError(f"{given}: no such file or directory")
        refuse_link_loop(given)
        if given.is_dir():
            root = given.resolve()
            yield from _walk(root, root, selection, with_others, avoid)
        else:
            file = given.resolve()
            # A file named explicitly is converted whatever its suffix.
            if _regular(given):
                yield SourcePath(file.parent, file, True)
            else:
                yield Skipped(given, "not a regular file")


def link_loop(path: Path) -> bool:
    """Whether ``path`` is a symbolic link that never reaches a file (``ln -s
    b a; ln -s a b``, or a link through one): resolving it fails, by an
    exception that depends on the Python version."""
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def refuse_link_loop(given: Path) -> None:
    """A path the user named that is a loop of links: a usage error."""
    if link_loop(given):
        raise UsageError(f"{shown_path(given)}: symbolic link loop (it never reaches a file "
                         "or folder)")


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _walk(root: Path, directory: Path, selection: Selection, with_others: bool,
          avoid: Path | None) -> Iterator[SourcePath | Skipped]:
    # Depth first, in name order, with an explicit stack: a tree nested
    # thousands of directories deep must not exhaust Python's recursion.
    pending: list[Iterator[os.DirEntry[str]]] = []
    listing = _list(directory)
    if isinstance(listing, Skipped):
        yield listing
        return
    pending.append(listing)
    while pending:
        entry = next(pending[-1], None)
        if entry is None:
            pending.pop()
            continue
        path = Path(entry.path)
        if entry.is_symlink():
            if link_loop(path):
                yield Skipped(path, "symlink loop (it never reaches a file); not followed")
                continue
            target = path.resolve()
            if not target.is_relative_to(root):
                yield Skipped(path, "symlink pointing outside the tree; not followed")
                continue
            if target.is_dir():
                yield Skipped(path, "symlink to a directory inside the tree; not followed "
                              "(its target is converted where it lives)")
                continue
        if entry.is_dir(follow_symlinks=False):
            if entry.name in SKIPPED_DIRS or (avoid is not None and path == avoid):
                continue
            listing = _list(path)
            if isinstance(listing, Skipped):
                yield listing
            else:
                pending.append(listing)
            continue
        if is_temporary(entry.name) and not entry.is_symlink():
            yield Skipped(path, "temporary file left by an interrupted hipport run",
                          leftover=True)
            continue
        rel = path.relative_to(root).as_posix()
        selected = selection.selects(rel)
        if not selected and not with_others:
            continue
        if not entry.is_file():  # follows a link, like stat(); no extra system call
            yield Skipped(path, "not a regular file (device, fifo, socket or broken link)")
            continue
        yield SourcePath(root, path, selected, link=entry.is_symlink())


def _list(directory: Path) -> Iterator[os.DirEntry[str]] | Skipped:
    try:
        with os.scandir(directory) as scan:
            return iter(sorted(scan, key=lambda e: e.name))
    except OSError as exc:
        return Skipped(directory, f"cannot list directory: {exc.strerror}")
