"""A copy of a tree to build in (make writes its objects beside the sources),
made so that nothing the build writes can reach the user's files.

Files are copied (times kept, so make sees what is newer); folders whose
name starts with ``.`` (``.git``) are left out.  A link to a place inside
the tree stays a link, to the same place in the copy; a link that leads
outside is copied as what it points to (a compiler writing ``-o`` through
it would otherwise write into the user's file), each folder once (a link
loop is copied once, not for ever).  A link to nothing is left out."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from hipport.errors import UsageError


def copy_tree(top: Path, target: Path) -> None:
    """``top`` (a folder) copied to ``target`` (which must not exist)."""
    try:
        _copy(top.resolve(), top.resolve(), target, set())
    except OSError as error:
        raise UsageError(f"{error.filename or top}: cannot be copied to build it "
                         f"({error.strerror or error})") from None


def _copy(folder: Path, top: Path, target: Path, seen: set[Path]) -> None:
    seen.add(folder.resolve())
    target.mkdir(parents=True)
    shutil.copystat(folder, target)
    with os.scandir(folder) as entries:
        listed = sorted(entries, key=lambda e: e.name)
    for entry in listed:
        source = Path(entry.path)
        there = target / entry.name
        if entry.is_symlink():
            _link(source, top, there, seen)
        elif entry.is_dir():
            if not entry.name.startswith("."):
                _copy(source, top, there, seen)
        elif entry.is_file():
            shutil.copy2(source, there)


def _link(source: Path, top: Path, there: Path, seen: set[Path]) -> None:
    resolved = source.resolve()
    if not resolved.exists():
        return
    if resolved == top or resolved.is_relative_to(top):
        os.symlink(os.path.relpath(resolved, source.parent.resolve()), there)
        return
    if resolved.is_dir():
        if resolved not in seen:
            _copy(resolved, top, there, seen)
    elif resolved.is_file():
        shutil.copy2(resolved, there)
