"""Files a command writes besides the sources: reports and baselines.

They are written like converted sources (``hipport.writing.write_atomic``:
temporary file, fsync, rename), so a crash or a full disk leaves the old
file whole.  And they never land on code: an output is refused when it is a
file the run reads, or when it has the name of a source or build file and
either exists already or lies inside an input folder (where the next run
would read it as code)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from hipport.errors import UsageError
from hipport.filenames import shown_path
from hipport.files import Selection
from hipport.jobs import Job
from hipport.writing import write_atomic


def output_target(output: Path, what: str, paths: Sequence[Path], selection: Selection,
                  jobs: Sequence[Job] = ()) -> Path:
    """Where ``output`` is written: a symlink is followed (the link stays, its
    target is replaced).  A ``UsageError`` when that would replace or add code:
    ``output`` is an input named on the command line, lies inside an input
    folder with a name the run reads as source or build file, is a hard link
    to one of the ``jobs``' files, or is an existing file with a source or
    build-file name."""
    target = output.resolve()
    where = f"refusing to write the {what} {shown_path(output)}"
    for given in paths:
        if given.is_dir() and target.is_relative_to(given.resolve()):
            rel = target.relative_to(given.resolve()).as_posix()
            if Selection().selects(rel) or selection.selects(rel):
                raise UsageError(f"{where}: inside the input folder {shown_path(given)}, a "
                                 "file of that name is read as source code; choose another "
                                 "name or folder")
        elif not given.is_dir() and target == given.resolve():
            raise UsageError(f"{where}: it is an input of this run; choose another name")
    linked = _hard_link(target, jobs)
    if linked is not None:
        from hipport.filenames import display_path

        raise UsageError(f"{where}: it is a hard link to {display_path(linked.source)}, a "
                         "file this run reads; choose another name")
    if target.exists() and (Selection().selects(target.name) or selection.selects(target.name)):
        raise UsageError(f"{where}: it would replace a source or build file; choose another "
                         "name")
    return target


def _hard_link(target: Path, jobs: Sequence[Job]) -> Job | None:
    """The job whose file ``target`` is another name of."""
    try:
        st = target.stat()
    except OSError:
        return None
    if st.st_nlink < 2:
        return None
    for job in jobs:
        try:
            other = os.stat(job.source)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return job
    return None


def write_output(target: Path, data: bytes, what: str) -> None:
    """``data`` to ``target`` atomically; a ``UsageError`` when it cannot be
    written (the old file, if any, is left as it was)."""
    try:
        write_atomic(target, data)
    except OSError as exc:
        raise UsageError(f"cannot write the {what} to {shown_path(target)}: "
                         f"{exc.strerror or exc}; a previous {what} there is unchanged") from None
