"""One writer per tree: an advisory lock held for the whole run.

Two in-place runs over the same files would each read the other's output as
their input (and their backups would hold converted code).  A run that writes
takes an exclusive ``flock`` on every directory (or file) it writes under,
and a shared one on each of their ancestors, so a second run over the same
tree, over a part of it, or over a tree containing it, is refused at once.
The locks are advisory and need no file of their own: they live on the
directories' open descriptors and vanish with the process, however it ends.
File systems that cannot lock (some network mounts) are not locked; the
per-file checks of ``hipport.replace`` still apply there."""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path
from typing import Iterable, Iterator

from hipport.errors import HipportError

_BUSY = frozenset({errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES})


class TreeBusy(HipportError):
    pass


@contextlib.contextmanager
def writing_under(paths: Iterable[Path], why: str = "two runs over the same files would "
                  "convert each other's output") -> Iterator[None]:
    """Hold the locks for writing under ``paths`` (resolved, existing);
    ``why`` a second run is refused."""
    exclusive = _outermost({p.resolve() for p in paths})
    shared = {a for p in exclusive for a in p.parents} - exclusive
    held: list[int] = []
    try:
        for path in sorted(exclusive):
            _lock(path, fcntl.LOCK_EX, held, why)
        for path in sorted(shared):
            _lock(path, fcntl.LOCK_SH, held, why)
        yield
    finally:
        for fd in held:
            os.close(fd)


def _outermost(paths: set[Path]) -> set[Path]:
    return {p for p in paths if not any(q != p and p.is_relative_to(q) for q in paths)}


def _lock(path: Path, how: int, held: list[int], why: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return  # an ancestor we may not read: the others still meet
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in _BUSY:
            raise TreeBusy(f"another hipport run is writing under {path}; wait for it to "
                           f"finish ({why})") from None
        return  # no locks on this file system
    held.append(fd)
