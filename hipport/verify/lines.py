"""A line of a converted file -> the same line of its CUDA original.

Conversion edits within lines and now and then adds or removes whole lines
(an include); lines that the comparison pairs up one for one map, the others
map to nothing."""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Sequence

_Opcodes = Sequence[tuple[str, int, int, int, int]]  # difflib's: how the old lines became the new


class LineMaps:
    """``original_line`` for many lines of the same files: each pair of
    files is read and compared once (a build's findings can name one file
    thousands of times, and a comparison costs more than reading it)."""

    def __init__(self) -> None:
        self._pairs: dict[tuple[Path, Path], _Opcodes | None] = {}

    def original_line(self, converted: Path, original: Path, line: int) -> int | None:
        key = (converted, original)
        if key not in self._pairs:
            self._pairs[key] = _opcodes(converted, original)
        opcodes = self._pairs[key]
        return _mapped(opcodes, line) if opcodes is not None else None


def original_line(converted: Path, original: Path, line: int) -> int | None:
    return LineMaps().original_line(converted, original, line)


def map_line(old: list[bytes], new: list[bytes], line: int) -> int | None:
    """1-based ``line`` of ``new`` -> its 1-based line in ``old``."""
    return _mapped(_compared(old, new), line)


def _opcodes(converted: Path, original: Path
             ) -> _Opcodes | None:
    try:
        new = converted.read_bytes().splitlines()
        old = original.read_bytes().splitlines()
    except OSError:
        return None
    return _compared(old, new)


def _compared(old: list[bytes], new: list[bytes]) -> _Opcodes:
    return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _mapped(opcodes: _Opcodes, line: int) -> int | None:
    index = line - 1
    for tag, i1, i2, j1, j2 in opcodes:
        if j1 <= index < j2:
            if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                return i1 + (index - j1) + 1
            return None
    return None
