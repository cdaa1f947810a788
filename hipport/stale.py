"""Files of a mirrored output tree (``convert -o DIR``) that no input file
maps to any more: what an earlier run converted from a source that has since
been deleted or renamed, or files someone put there.  They are reported, and
removed only when asked (``--prune``): hipport never deletes on its own."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from hipport.files import SKIPPED_DIRS


@dataclass(frozen=True)
class Removal:
    path: Path
    error: str = ""  # why it could not be removed ("" when it was)


def stale_outputs(out: Path, roots: Sequence[Path]) -> list[Path]:
    """Files (and symbolic links) under ``out`` whose counterpart in the input
    does not exist.  ``roots``: the input folders as the run mirrors them
    (several folders: each under its own name in ``out``).  Version-control
    and cache folders are left out, as the run leaves them out of the mirror."""
    bases = {out / root.name: root for root in roots} if len(roots) > 1 else {out: roots[0]}
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(out):
        folder = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        entries = sorted(filenames) + [d for d in dirnames if (folder / d).is_symlink()]
        for name in entries:
            path = folder / name
            source = _source_of(path, bases)
            if source is None or not os.path.lexists(source):
                found.append(path)
    return sorted(found)


def _source_of(path: Path, bases: dict[Path, Path]) -> Path | None:
    for base, root in bases.items():
        if path.is_relative_to(base):
            return root / path.relative_to(base)
    return None  # outside every root's folder in the mirror


def prune(paths: Sequence[Path], out: Path) -> list[Removal]:
    """Remove ``paths`` (files or links under ``out``; a link is removed, never
    followed), then the folders that became empty, up to ``out`` itself."""
    done: list[Removal] = []
    folders: set[Path] = set()
    for path in paths:
        if not path.is_relative_to(out) or path == out:
            done.append(Removal(path, "outside the output folder"))
            continue
        try:
            path.unlink()
        except OSError as exc:
            done.append(Removal(path, exc.strerror or str(exc)))
            continue
        done.append(Removal(path))
        folders.update(p for p in path.parents if p.is_relative_to(out) and p != out)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()  # only succeeds when empty
        except OSError:
            pass
    return done
