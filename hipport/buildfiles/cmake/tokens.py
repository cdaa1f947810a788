"""A small CMake lexer: command invocations and their arguments, with spans.

Follows the grammar of the cmake-language(7) manual: line and bracket
comments, quoted arguments with escapes, bracket arguments ``[==[...]==]``,
unquoted arguments (including legacy ``a="b c"``), nested parentheses.
Text is the file decoded as latin-1, so string offsets are byte offsets."""
from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass


class ArgKind(enum.Enum):
    UNQUOTED = "unquoted"
    QUOTED = "quoted"
    BRACKET = "bracket"
    OPEN = "("
    CLOSE = ")"


@dataclass(frozen=True)
class Argument:
    text: str  # as written, quotes included
    start: int
    end: int
    kind: ArgKind

    @property
    def value(self) -> str:
        """The argument without its quotes (escapes left as written)."""
        if self.kind is ArgKind.QUOTED:
            return self.text[1:-1]
        return self.text

    @property
    def value_start(self) -> int:
        return self.start + 1 if self.kind is ArgKind.QUOTED else self.start

    @property
    def value_end(self) -> int:
        return self.end - 1 if self.kind is ArgKind.QUOTED else self.end


@dataclass(frozen=True)
class Command:
    name: str
    start: int  # of the name
    end: int  # after ')'
    args: tuple[Argument, ...]

    @functools.cached_property
    def lname(self) -> str:  # asked for by every pass over every command: kept
        return self.name.lower()

    @property
    def words(self) -> list[Argument]:
        """Arguments that carry values (no parentheses of nested groups)."""
        return [a for a in self.args if a.kind not in (ArgKind.OPEN, ArgKind.CLOSE)]


class CMakeSyntaxError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def _bracket_open(text: str, i: int) -> int | None:
    """Length of ``=`` run when a bracket opens at ``text[i]`` (``[==[``)."""
    if text[i] != "[":
        return None
    j = i + 1
    while j < len(text) and text[j] == "=":
        j += 1
    return j - i - 1 if j < len(text) and text[j] == "[" else None


def _bracket_end(text: str, i: int, level: int) -> int:
    close = "]" + "=" * level + "]"
    end = text.find(close, i + level + 2)
    if end < 0:
        raise CMakeSyntaxError("unterminated bracket argument or comment", i)
    return end + len(close)


def _skip_comment(text: str, i: int) -> int:
    """``text[i] == '#'``: the offset after the comment."""
    if i + 1 < len(text) and (level := _bracket_open(text, i + 1)) is not None:
        return _bracket_end(text, i + 1, level)
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _quoted_end(text: str, i: int) -> int:
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == '"':
            return j + 1
        j += 1
    raise CMakeSyntaxError("unterminated quoted argument", i)


_UNQUOTED_STOP = re.compile(r'[\\" \t\r\n()#]')


def _unquoted_end(text: str, i: int) -> int:
    j = i
    while True:
        stop = _UNQUOTED_STOP.search(text, j)
        if stop is None:
            return len(text)
        j = stop.start()
        c = text[j]
        if c == "\\":
            j += 2
        elif c == '"':  # legacy: -DA="b c"
            j = _quoted_end(text, j)
        else:
            return j


def _arguments(text: str, i: int) -> tuple[list[Argument], int]:
    """Arguments from just after ``(`` to the matching ``)``; returns the
    offset after it."""
    args: list[Argument] = []
    depth = 0
    while True:
        if i >= len(text):
            raise CMakeSyntaxError("unbalanced parenthesis: missing ')'", i)
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            i = _skip_comment(text, i)
        elif c == "(":
            args.append(Argument("(", i, i + 1, ArgKind.OPEN))
            depth += 1
            i += 1
        elif c == ")":
            if depth == 0:
                return args, i + 1
            args.append(Argument(")", i, i + 1, ArgKind.CLOSE))
            depth -= 1
            i += 1
        elif c == '"':
            end = _quoted_end(text, i)
            args.append(Argument(text[i:end], i, end, ArgKind.QUOTED))
            i = end
        elif (level := _bracket_open(text, i)) is not None:
            end = _bracket_end(text, i, level)
            args.append(Argument(text[i:end], i, end, ArgKind.BRACKET))
            i = end
        else:
            end = _unquoted_end(text, i)
            args.append(Argument(text[i:end], i, end, ArgKind.UNQUOTED))
            i = end


def lex_cmake(text: str) -> list[Command]:
    """All command invocations of a CMake file, in order.

    Raises ``CMakeSyntaxError`` (with an offset) on text that is not CMake."""
    commands: list[Command] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            i = _skip_comment(text, i)
        elif c.isascii() and (c.isalpha() or c == "_"):
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
                i += 1
            name = text[start:i]
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != "(":
                raise CMakeSyntaxError(f"expected '(' after {name}", i)
            args, i = _arguments(text, i + 1)
            commands.append(Command(name, start, i, tuple(args)))
        else:
            raise CMakeSyntaxError(f"unexpected {c!r} outside a command", i)
    return commands
