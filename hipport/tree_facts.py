"""Facts about a whole tree that the conversion of single files needs, read
before any file is converted (pipeline.plan): whether a source reads
textures (hipport.gpus), whether the build compiles relocatable device code
(hipport.buildfiles.build_facts)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable


def any_file(paths: Iterable[Path], test: Callable[[bytes], bool]) -> bool:
    """Whether ``test`` holds for the bytes of one of ``paths``; a file that
    cannot be read counts as not (the run reports it where it converts it)."""
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if test(data):
            return True
    return False
