"""Words of a build-file command line, with byte spans, and the edits that
replace or remove them without disturbing their neighbours."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from hipport.edits import Edit


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    end: int


def split_words(text: str, start: int, end: int, separators: str = " \t\r\n",
                openers: str = "({") -> Iterator[Word]:
    """Words of ``text[start:end]`` split at ``separators``; references such as
    ``$(...)`` and ``${...}`` (and ``$<...>`` when ``<`` is among ``openers``)
    stay whole; a backslash-newline separates."""
    closer = {"(": ")", "{": "}", "<": ">"}
    i = start
    while i < end:
        while i < end and (text[i] in separators or text.startswith("\\\n", i)):
            i += 2 if text[i] == "\\" else 1
        if i >= end:
            return
        begin = i
        stack: list[str] = []
        while i < end:
            c = text[i]
            if c == "$" and i + 1 < end and text[i + 1] in openers:
                stack.append(closer[text[i + 1]])
                i += 2
                continue
            if stack:
                if c == stack[-1]:
                    stack.pop()
                elif c in "({" and stack[-1] in ")}":
                    stack.append(closer[c])
            elif c in separators or text.startswith("\\\n", i):
                break
            i += 1
        yield Word(text[begin:i], begin, i)


def identifiers(text: str, start: int, end: int) -> Iterator[Word]:
    """Maximal runs of ``[A-Za-z0-9_]`` in ``text[start:end]`` (a name is only
    ever matched whole, so ``MY_CUDA_FLAGS`` never matches ``CUDA_FLAGS``)."""
    for match in _IDENTIFIER.finditer(text, start, end):
        yield Word(match.group(), match.start(), match.end())


_IDENTIFIER = re.compile(r"[A-Za-z0-9_]+")


_GAP = frozenset(" \t;\\\n\r")


def blanks_before(text: str, start: int) -> int:
    """Where the spaces and tabs right before ``start`` begin."""
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    return start


def removal(text: str, words: list[Word], first: int, last: int,
            removed: set[int]) -> Edit:
    """An edit deleting ``words[first..last]`` and the separator before them
    (or after them when they open the sequence), so no double blank or
    dangling separator is left.  ``removed`` holds the indices of every other
    word being deleted, so that neighbouring deletions never overlap."""
    a, b = words[first], words[last]
    nxt = last + 1
    leading = all(k in removed for k in range(first))  # nothing kept before us
    clean_after = nxt < len(words) and set(text[b.end:words[nxt].start]) <= _GAP
    clean_before = first > 0 and set(text[words[first - 1].end:a.start]) <= _GAP
    if leading and clean_after and nxt not in removed:
        # The last of a leading run takes the gap after it: "F := -x -y -O3"
        # loses "-x -y " and keeps "F := -O3".
        return Edit(words[first - 1].end if clean_before else a.start, words[nxt].start, b"")
    if clean_before:
        return Edit(words[first - 1].end, b.end, b"")
    return Edit(a.start, b.end, b"")
