"""Writing results without ever leaving a half-written file.

Every write goes to a temporary file in the target's directory, named
``.NAME.XXXXXXXX.hipport-tmp``, and is renamed over the target only once
complete: a reader (or a crash, a SIGKILL, a power cut once fsync'd) sees the
old bytes or the new ones, never a mix.  A temporary file can only outlive its
write when the process is killed outright; ``is_temporary`` recognises such
leftovers so the next run can remove them (see ``hipport.files``)."""
from __future__ import annotations

import errno
import filecmp
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from hipport.deferred_signals import deferred_signals

TEMP_SUFFIX = ".hipport-tmp"
# mkstemp's random part: 8 characters of [a-z0-9_] (so is hipport.replace's held original).
_TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + "$")


def is_temporary(name: str) -> bool:
    """Whether ``name`` is one of ours: ``.NAME.XXXXXXXX.hipport-tmp``."""
    return _TEMPORARY.match(name) is not None


@deferred_signals()
def write_atomic(path: Path, data: bytes, *, like: Path | None = None,
                 durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same
    directory, fsync'd, then renamed over the target: readers see the old
    bytes or the new ones, never a mix.  Mode (and ownership, when allowed)
    are copied from ``like`` or from the file being replaced.

    ``durable=False`` skips the fsyncs (the rename stays atomic): for files
    that are new, in a fresh output tree, where a crash loses nothing of the
    user's and the fsyncs would cost more than the conversion.

    Sources converted in place go through ``hipport.replace`` instead, which
    also guards against concurrent writers and keeps backups."""
    if not path.parent.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
    reference = like if like is not None else (path if path.exists() else None)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if reference is not None:
            st = reference.stat()
            os.chmod(tmp, st.st_mode & 0o7777)
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except (PermissionError, AttributeError):
                pass
        else:  # a new file gets the mode the user's umask gives (mkstemp's is 0600)
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:  # never leave the temporary behind (signals wait: deferred_signals)
        remove_quietly(tmp)
        raise
    if durable:
        fsync_directory(path.parent)


def same_file_content(path: Path, data: bytes, *, like: Path | None = None) -> bool:
    """Whether ``path`` is a regular file holding exactly ``data`` (with the
    permission bits of ``like``): rewriting it would change nothing."""
    try:
        st = path.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(data):
            return False
        if like is not None and stat.S_IMODE(like.stat().st_mode) != stat.S_IMODE(st.st_mode):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def same_as_file(path: Path, source: Path) -> bool:
    """Whether ``path`` is already a regular-file copy of ``source`` (bytes and
    permission bits); sizes are compared before any byte is read."""
    try:
        st, src = path.lstat(), source.stat()
        if not stat.S_ISREG(st.st_mode) or st.st_size != src.st_size or \
                stat.S_IMODE(st.st_mode) != stat.S_IMODE(src.st_mode):
            return False
        return filecmp.cmp(path, source, shallow=False)
    except OSError:
        return False


@deferred_signals()
def copy_file(source: Path, target: Path) -> None:
    """Copy ``source`` (bytes, mode, times) to ``target``, atomically."""
    if not target.parent.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    try:
        os.close(fd)
        shutil.copy2(source, tmp)
        os.replace(tmp, target)
    except BaseException:
        remove_quietly(tmp)
        raise


def _umask() -> int:
    # Reading the umask means setting it; hipport's processes do not create
    # files from other threads meanwhile.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class UnsafeOutput(OSError):
    """An output path leads somewhere hipport must not write."""


def make_parents(target: Path, root: Path) -> None:
    """Create the directories between ``root`` and ``target`` as needed.  Any
    of them that exists as something else than a real directory (a symbolic
    link above all, which could lead into the input tree) is refused."""
    if not root.is_dir():
        root.mkdir(parents=True, exist_ok=True)
    current = root
    for part in target.parent.relative_to(root).parts:
        current = current / part
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            try:
                os.mkdir(current)
            except FileExistsError:
                pass
            st = os.lstat(current)
        if not stat.S_ISDIR(st.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a directory"
            raise UnsafeOutput(errno.ENOTDIR, f"{current} is {kind}; hipport never writes "
                               "through it (remove it or choose another output directory)")


def unwritable_folder(path: Path) -> tuple[Path, str] | None:
    """The folder that keeps ``path`` from being written (its own, or, when
    that is still to be made, the nearest one above that exists), and why;
    None when it can be written.  Asked before a run writes anything, so a
    run that cannot finish never starts (the in-place rewrite of a source
    whose header could not be written left a tree that did not compile)."""
    folder = path.parent
    while not folder.is_dir():
        if folder.parent == folder:
            return None  # nothing exists to ask (the write says why)
        folder = folder.parent
    effective = os.access in os.supports_effective_ids  # root: the mode bits do not matter
    if os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
        return None
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    return folder, os.strerror(errno.EROFS if read_only else errno.EACCES)
