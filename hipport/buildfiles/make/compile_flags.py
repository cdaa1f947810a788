"""The compile flags a Makefile gives its sources (``-I``, ``-isystem``,
``-D``, ``-U``, ``-std=`` in variables and recipes), read without running
make: a value make must compute (``$(shell ...)``) is left out."""
from __future__ import annotations

import shlex
from functools import lru_cache
from pathlib import Path

from hipport.buildfiles.expand import (
    MAKE_REFERENCE,
    PATH_FLAGS,
    absolute,
    expand,
    read_text,
    unique_flags,
)
from hipport.buildfiles.make.tokens import LineKind, MakeLine, lex_make
from hipport.buildfiles.words import split_words


def make_flags(path: Path, given: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """``given``: the user's ``NAME=VALUE`` make variables, which win over
    the file's assignments as on make's command line."""
    try:
        stat = path.stat()
    except OSError:
        return []
    return list(_flags(path, stat.st_mtime_ns, stat.st_size, given))


@lru_cache(maxsize=256)  # a file is asked once per source below it
def _flags(path: Path, mtime: int, size: int, given: tuple[tuple[str, str], ...]
           ) -> tuple[str, ...]:
    text = read_text(path)
    if text is None:
        return ()
    folder = path.parent
    lines = lex_make(text)
    known = make_variables(text, lines, {"CURDIR": str(folder)}) | dict(given)
    flags: list[str] = []
    for line in lines:
        if line.kind not in (LineKind.ASSIGNMENT, LineKind.RECIPE):
            continue
        words = [w.text for w in split_words(text, line.value_start, line.content_end)]
        flags += _make_words(words, known, folder)
    return tuple(unique_flags(flags))


def make_variables(text: str, lines: list[MakeLine], known: dict[str, str] | None = None
                   ) -> dict[str, str]:
    """Each variable's value as the file leaves it (``+=`` appends, ``?=``
    sets what is not set), references unexpanded."""
    known = dict(known or {})
    for line in lines:
        if line.kind is LineKind.ASSIGNMENT and line.name is not None:
            value = text[line.value_start:line.content_end].replace("\\\n", " ").strip()
            name = line.name.text
            if line.operator == "+=" and name in known:
                known[name] = f"{known[name]} {value}"
            elif line.operator != "?=" or name not in known:
                known[name] = value
    return known


def _make_words(words: list[str], known: dict[str, str], folder: Path) -> list[str]:
    flags: list[str] = []
    i = 0
    while i < len(words):
        word = _shell_word(words[i], known)
        flag = next((f for f in PATH_FLAGS if word and word.startswith(f)), None)
        if word is not None and flag is not None:
            value: str | None = word[len(flag):]
            if not value and i + 1 < len(words):
                i += 1
                value = _shell_word(words[i], known)
            if value:
                flags += [flag, absolute(folder, value)]
        elif word is not None and word.startswith(("-D", "-U", "-std=")) and len(word) > 2:
            flags.append(word)
        i += 1
    return flags


def _shell_word(word: str, known: dict[str, str]) -> str | None:
    """A recipe word as the shell hands it to the compiler (references
    expanded, quotes removed: ``-DDIR='"$(DIR)"'`` -> ``-DDIR="inc"``);
    None when it is not one known word."""
    expanded = expand(word, known, MAKE_REFERENCE)
    if expanded is None:
        return None
    try:
        parts = shlex.split(expanded)
    except ValueError:
        return None
    return parts[0] if len(parts) == 1 else None
