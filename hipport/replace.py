"""Replacing a source file in place without losing anybody's bytes.

``write_atomic`` already guarantees a reader sees the old bytes or the new
ones.  An in-place conversion must also guarantee that nothing written to the
file *by someone else* since hipport read it is lost, that a backup never
replaces an existing file, and that files whose replacement would surprise
the user (read-only, hard-linked) are left alone unless they said ``--force``.

The sequence (``replace_source``):

1. the converted bytes go to a temporary file in the same directory, complete
   and fsync'd;
2. a second name is linked to the file being replaced (the backup, or a
   temporary name): from here on the original inode cannot disappear;
3. that inode is checked to be the one read (device, inode, size, mtime) and
   to still hold the bytes that were converted;
4. the temporary file is renamed over the source;
5. the original inode is checked again: a write that landed between 3 and 4
   is not lost, the original (with that write) is renamed back.

A *replacement* of the file by another program (an editor saving through its
own rename) in the microseconds between 2 and 4 is the one race left: POSIX
has no compare-and-rename.  Where hard links are impossible, step 5 cannot
run and step 3 reads the file instead."""
from __future__ import annotations

import errno
import os
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from hipport.deferred_signals import deferred_signals
from hipport.writing import TEMP_SUFFIX, fsync_directory, remove_quietly

# Links are impossible on this file system (FAT, some FUSE and network mounts).
_NO_LINKS = frozenset({errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.EMLINK,
                       errno.ENOSYS})
_MAX_BACKUP_TRIES = 1000


@dataclass(frozen=True)
class Identity:
    """Which file was read, and in what state: replaced only if it still is."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, st: os.stat_result) -> Identity:
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class NotReplaced(Exception):
    """The source was left as it is; ``code`` and the message say why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_source(path: Path, attempts: int = 3) -> tuple[bytes, Identity]:
    """The file's bytes and the identity they belong to.  A file written to
    while it is read is read again; one that never holds still is an error."""
    for _ in range(attempts):
        with open(path, "rb") as handle:
            before = Identity.of(os.fstat(handle.fileno()))
            data = handle.read()
            after = Identity.of(os.fstat(handle.fileno()))
        if before == after and len(data) == after.size:
            return data, after
    raise OSError(errno.EAGAIN, "the file kept changing while it was read")


@dataclass(frozen=True)
class Replaced:
    backup: Path | None = None  # where the original now lives, when asked for
    backup_renamed: bool = False  # NAME+SUFFIX was taken: a numbered name was used


@deferred_signals()
def replace_source(path: Path, data: bytes, *, original: bytes, expected: Identity,
                   backup: str | None = None, force: bool = False) -> Replaced:
    """Replace ``path`` (read as ``original``, ``expected``) by ``data``.
    Raises ``NotReplaced`` when the file must be left alone, ``OSError`` when
    writing fails (the file is then unchanged too)."""
    st = _current(path, expected)
    if not force:
        _refuse_surprises(st)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    held: Path | None = None
    renamed = replaced = False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, st.st_mode & 0o7777)
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except (PermissionError, AttributeError):
            pass
        held, renamed = _hold_original(path, backup)
        if held is None:  # no hard links here: a read must do
            if backup is not None:
                held, renamed = _copy_backup(path, backup, original)
            with open(path, "rb") as current:
                _check_same(current, expected, original)
            os.replace(tmp, path)
            replaced = True
        else:
            with open(held, "rb") as old:
                _check_same(old, expected, original)
                os.replace(tmp, path)
                replaced = True
                if Identity.of(os.fstat(old.fileno())) != expected:
                    # Written to between the check and the rename: put it back.
                    os.replace(held, path)
                    held, replaced = None, False
                    raise NotReplaced("HP008", "changed while it was being replaced; "
                                      "left as the other program wrote it")
    except BaseException:  # never leave our files behind (signals wait: deferred_signals)
        remove_quietly(tmp)
        if held is not None and not replaced:
            remove_quietly(str(held))  # a backup of a file that was not replaced
        raise
    if held is not None and backup is None:
        remove_quietly(str(held))
        held = None
    fsync_directory(path.parent)
    return Replaced(held, renamed)


def _current(path: Path, expected: Identity) -> os.stat_result:
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode) or Identity.of(st) != expected:
        raise NotReplaced("HP008", "changed since it was read; left as it is now, not converted "
                          "(run hipport again)")
    return st


def _refuse_surprises(st: os.stat_result) -> None:
    if not st.st_mode & stat.S_IWUSR:
        raise NotReplaced("HP009", "read-only file; left unchanged (--force rewrites "
                          "read-only files, keeping their mode)")
    if st.st_nlink > 1:
        raise NotReplaced("HP009", f"has {st.st_nlink} hard links; replacing it would leave "
                          "the other names with the old text, so it was left unchanged "
                          "(--force converts it and breaks the link)")


def _check_same(handle: BinaryIO, expected: Identity, original: bytes) -> None:
    if Identity.of(os.fstat(handle.fileno())) != expected or handle.read() != original:
        raise NotReplaced("HP008", "changed since it was read; left as it is now, not converted "
                          "(run hipport again)")


def _hold_original(path: Path, backup: str | None) -> tuple[Path | None, bool]:
    """A second name for the file about to be replaced: the backup (never an
    existing file: the first free ``NAME+SUFFIX``, ``NAME+SUFFIX.1``, ...) or a
    temporary name.  ``(None, False)`` where hard links are impossible."""
    for candidate, renamed in _names(path, backup):
        try:
            os.link(path, candidate, follow_symlinks=False)
            return candidate, renamed
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno in _NO_LINKS:
                return None, False
            raise
    raise OSError(errno.EEXIST, f"no free backup name for {path.name}{backup or ''}")


def _copy_backup(path: Path, backup: str, original: bytes) -> tuple[Path, bool]:
    """The backup as a new file, created exclusively (never over another)."""
    for candidate, renamed in _names(path, backup):
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(original)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(candidate, stat.S_IMODE(os.lstat(path).st_mode))
        except BaseException:
            remove_quietly(str(candidate))
            raise
        return candidate, renamed
    raise OSError(errno.EEXIST, f"no free backup name for {path.name}{backup}")


def _names(path: Path, backup: str | None) -> list[tuple[Path, bool]]:
    if backup is None:
        return [(path.parent / f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}", False)
                for _ in range(10)]
    base = path.name + backup
    return [(path.parent / base, False)] + [(path.parent / f"{base}.{n}", True)
                                            for n in range(1, _MAX_BACKUP_TRIES)]
