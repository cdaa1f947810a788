"""Writing results without ever leaving a half-written file."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes, *, like: Path | None = None,
                 durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same
    directory, fsync'd, then renamed over the target: readers see the old
    bytes or the new ones, never a mix.  Mode (and ownership, when allowed)
    are copied from ``like`` or from the file being replaced.

    ``durable=False`` skips the fsyncs (the rename stays atomic): for files
    that are new, in a fresh output tree, where a crash loses nothing of the
    user's and the fsyncs would cost more than the conversion."""
    if not path.parent.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
    reference = like if like is not None else (path if path.exists() else None)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".hipport-tmp", dir=path.parent)
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
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        _fsync_directory(path.parent)


def copy_file(source: Path, target: Path) -> None:
    if not target.parent.is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.hipport-tmp")
    shutil.copy2(source, tmp)
    os.replace(tmp, target)


def _fsync_directory(directory: Path) -> None:
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
