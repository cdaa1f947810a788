"""Reading values out of build files without running them: references
expanded where every one is known, paths made absolute."""
from __future__ import annotations

import re
from pathlib import Path

CMAKE_REFERENCE = re.compile(r"\$\{(\w+)\}")
MAKE_REFERENCE = re.compile(r"\$[({](\w+)[)}]")
PATH_FLAGS = ("-isystem", "-iquote", "-I")
_MAX_EXPANSIONS = 20


def read_text(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("latin-1")
    except OSError:
        return None


def expand(value: str, known: dict[str, str], ref: re.Pattern[str]) -> str | None:
    """``value`` with every reference replaced; None when one is unknown."""
    for _ in range(_MAX_EXPANSIONS):
        if "$" not in value:
            return value
        missing = [m[1] for m in ref.finditer(value) if m[1] not in known]
        if missing or not ref.search(value):
            return None
        value = ref.sub(lambda m: known[m[1]], value)
    return None


def absolute(folder: Path, value: str) -> str:
    return str(Path(value) if Path(value).is_absolute() else (folder / value).resolve())


def unique_flags(flags: list[str]) -> list[str]:
    """Each flag (with its value) once, in first-seen order."""
    seen: set[tuple[str, ...]] = set()
    out: list[str] = []
    i = 0
    while i < len(flags):
        group = tuple(flags[i:i + 2]) if flags[i] in PATH_FLAGS else (flags[i],)
        i += len(group)
        if group not in seen:
            seen.add(group)
            out += group
    return out
