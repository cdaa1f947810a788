"""A line of a converted file -> the same line of its CUDA original.

Conversion edits within lines and now and then adds or removes whole lines
(an include); lines that the comparison pairs up one for one map, the others
map to nothing."""
from __future__ import annotations

import difflib
from pathlib import Path


def original_line(converted: Path, original: Path, line: int) -> int | None:
    try:
        new = converted.read_bytes().splitlines()
        old = original.read_bytes().splitlines()
    except OSError:
        return None
    return map_line(old, new, line)


def map_line(old: list[bytes], new: list[bytes], line: int) -> int | None:
    """1-based ``line`` of ``new`` -> its 1-based line in ``old``."""
    index = line - 1
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if j1 <= index < j2:
            if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                return i1 + (index - j1) + 1
            return None
    return None
