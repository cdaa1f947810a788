"""Delivering one file's conversion as the run's mode says: a diff, an
in-place replacement, or a file in the output tree.  Every write is atomic
(``hipport.writing``, ``hipport.replace``); any error writing stops the run."""
from __future__ import annotations

import contextlib
import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from hipport.convert import ConversionResult
from hipport.errors import HipportError
from hipport.findings import Finding, LocatedFinding
from hipport.replace import Identity, NotReplaced, replace_source
from hipport.source import Location
from hipport.writing import copy_file, make_parents, same_as_file, same_file_content, write_atomic


class Mode(enum.Enum):
    DRY_RUN = "dry-run"  # findings only, nothing written
    DIFF = "diff"  # unified diff, nothing written
    IN_PLACE = "in-place"
    MIRROR = "mirror"  # write every file under an output directory


class WriteFailed(HipportError):
    """Writing an output failed (a full disk, a read-only folder): the run
    stops, since every later file would fail the same way."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}; the run stopped: every file written so far is complete, "
                         "the others are unchanged")


@dataclass(frozen=True)
class Delivered:
    diff: str = ""
    notes: tuple[LocatedFinding, ...] = ()  # said while delivering (a renamed backup)
    refused: Finding | None = None  # the file was left as it is, and why


@dataclass(frozen=True)
class Destination:
    """Where and how a run writes: the part of the run's options delivery needs."""

    mode: Mode
    output: Path | None = None  # mirror: the output root (nothing is written outside it)
    backup: str | None = None  # in-place: keep each replaced file as NAME + suffix
    force: bool = False  # in-place: rewrite read-only and hard-linked files too


def deliver(to: Destination, source: Path, display: str, target: Path | None,
            result: ConversionResult, identity: Identity) -> Delivered:
    """Write (or diff) ``result``, the conversion of ``source`` as read
    (``identity``), to ``target``."""
    if to.mode is Mode.DIFF and result.changed:
        return Delivered(unified_diff(result.original, result.output, display))
    if to.mode is Mode.IN_PLACE and result.changed and target is not None:
        return _replace(to, target, result, identity)
    if to.mode is Mode.MIRROR and target is not None:
        # A re-run into the same folder rewrites nothing that is already right.
        if result.changed:
            if not same_file_content(target, result.output, like=source):
                with writing(to, target):
                    write_atomic(target, result.output, like=source, durable=False)
        elif not same_file_content(target, result.original, like=source):
            with writing(to, target):
                copy_file(source, target)
    return Delivered()


def copy(to: Destination, source: Path, target: Path) -> None:
    """Mirror a file that is not converted."""
    if not same_as_file(target, source):
        with writing(to, target):
            copy_file(source, target)


def _replace(to: Destination, target: Path, result: ConversionResult,
             identity: Identity) -> Delivered:
    try:
        with writing(to, target):
            done = replace_source(target, result.output, original=result.original,
                                  expected=identity, backup=to.backup, force=to.force)
    except NotReplaced as exc:
        return Delivered(refused=Finding(exc.code, exc.message, 0, 0))
    if done.backup_renamed and done.backup is not None:
        taken = target.name + (to.backup or "")
        note = Finding("HP010", f"{taken} already exists; the original was kept as "
                       f"{done.backup.name}", 0, 0)
        return Delivered(notes=(LocatedFinding(note, Location(1, 1), Location(1, 1), False),))
    return Delivered()


@contextlib.contextmanager
def writing(to: Destination, target: Path) -> Iterator[None]:
    """Any error writing ``target`` stops the run (``WriteFailed``); its
    folders are made first, never through a symbolic link."""
    try:
        root = to.output
        if root is not None and target.is_relative_to(root):
            make_parents(target, root)
        elif not target.parent.is_dir():
            target.parent.mkdir(parents=True, exist_ok=True)
        yield
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise WriteFailed(f"cannot write {target}: {reason}") from None


def unified_diff(before: bytes, after: bytes, name: str) -> str:
    import difflib

    a = before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    b = after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, f"a/{name}", f"b/{name}")
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
