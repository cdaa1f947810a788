"""A copy of a tree to build in, so that nothing the build writes (make's
objects beside the sources, CMake's ``configure_file`` into the source
folder) reaches the user's files, and its removal.

Files are copied (times kept, so make sees what is newer; writable by their
owner, as a build of a read-only tree expects of its copy); folders whose
name starts with ``.`` (``.git``) are left out.  Links stay links, never
followed: one to a place inside the tree leads to the same place in the
copy; one that leads outside leads to the same place as before, by its
absolute path (a link to ``/`` or to a data folder costs nothing; the
build's sandbox shows its target read-only or not at all, so a compiler
cannot write through it).  A link to nothing is left out, a link loop is
left out and said (``Skipped``)."""
from __future__ import annotations

import errno
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

from hipport.deferred_signals import deferred_signals
from hipport.errors import UsageError


@dataclass(frozen=True)
class Skipped:
    path: Path  # in the user's tree
    reason: str


def copy_tree(top: Path, target: Path) -> list[Skipped]:
    """``top`` (a folder) copied to ``target`` (which must not exist); what
    was left out and why."""
    skipped: list[Skipped] = []
    try:
        _copy(top.resolve(), top.resolve(), target, skipped)
    except OSError as error:
        raise UsageError(f"{error.filename or top}: cannot be copied to build it "
                         f"({error.strerror or error})") from None
    return skipped


def _copy(folder: Path, top: Path, target: Path, skipped: list[Skipped]) -> None:
    # A folder at a time, with an explicit stack: a tree thousands of folders
    # deep must not exhaust Python's recursion.
    pending = [(folder, target)]
    while pending:
        folder, target = pending.pop()
        target.mkdir(parents=True)
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=lambda e: e.name)
        for entry in listed:
            source = Path(entry.path)
            there = target / entry.name
            if entry.is_symlink():
                _link(source, top, there, skipped)
            elif entry.is_dir():
                if not entry.name.startswith("."):
                    pending.append((source, there))
            elif entry.is_file():
                shutil.copy2(source, there)
                _owned(there, stat.S_IWUSR)
        shutil.copystat(folder, target)
        _owned(target, stat.S_IRWXU)


def _owned(path: Path, bits: int) -> None:
    path.chmod(stat.S_IMODE(path.stat().st_mode) | bits)


def _link(source: Path, top: Path, there: Path, skipped: list[Skipped]) -> None:
    try:
        resolved = Path(os.path.realpath(source, strict=True))
    except FileNotFoundError:
        return  # a link to nothing
    except OSError as error:  # ELOOP: a link loop; EACCES: a folder on the way
        skipped.append(Skipped(source, f"skipped: {_why(error)}; not copied"))
        return
    if resolved == top or resolved.is_relative_to(top):
        os.symlink(os.path.relpath(resolved, source.parent.resolve()), there)
    else:
        os.symlink(resolved, there)


def _why(error: OSError) -> str:
    return "a symbolic link loop" if error.errno == errno.ELOOP else error.strerror or str(error)


def remove_tree(folder: Path) -> None:
    """``folder`` and everything in it, also what a build made read-only
    or unreadable (a ``chmod 0`` folder would keep its files); what cannot
    be removed stays.  A second Ctrl-C (SIGTERM, SIGHUP) waits for it: it
    would leave half a folder."""
    with deferred_signals():
        _openable(folder)
        for here, folders, _ in os.walk(folder):  # top-down: opened before it is read
            for name in folders:
                _openable(Path(here, name))
        shutil.rmtree(folder, ignore_errors=True)


def _openable(folder: Path) -> None:
    try:
        if not folder.is_symlink():
            folder.chmod(folder.stat().st_mode | stat.S_IRWXU)
    except OSError:
        pass
