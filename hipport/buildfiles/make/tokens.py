"""A small Makefile lexer: logical lines (backslash continuations joined),
classified as comment, recipe, assignment, rule or directive, with spans.

Text is the file decoded as latin-1, so string offsets are byte offsets."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from hipport.buildfiles.words import Word


class LineKind(enum.Enum):
    BLANK = "blank"
    COMMENT = "comment"
    RECIPE = "recipe"
    ASSIGNMENT = "assignment"
    RULE = "rule"
    DIRECTIVE = "directive"
    DEFINE_BODY = "define-body"  # raw text of a define ... endef block
    OTHER = "other"


DIRECTIVES = frozenset({"ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "include",
                        "-include", "sinclude", "define", "endef", "export", "unexport",
                        "override", "undefine", "vpath", "private"})
_OPERATORS = (":::=", "::=", ":=", "?=", "+=", "!=", "=")
# Characters that may start an operator or end the search (a rule's `:`, `;`):
# any other character is passed over without trying each operator on it.
_STOPS = frozenset(op[0] for op in _OPERATORS) | {":", ";"}


@dataclass(frozen=True)
class MakeLine:
    kind: LineKind
    start: int
    end: int  # before the newline ending the logical line
    content_end: int  # before a trailing comment
    name: Word | None = None  # the variable of an assignment
    operator: str = ""
    value_start: int = 0  # assignment value, or recipe command after the tab

    @property
    def body_start(self) -> int:
        return self.value_start if self.kind in (LineKind.ASSIGNMENT,
                                                 LineKind.RECIPE) else self.start


def _logical_end(text: str, start: int) -> int:
    pos = start
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        k = nl
        while k > start and text[k - 1] == "\\":
            k -= 1
        if (nl - k) % 2 == 0:
            return nl
        pos = nl + 1


def _comment_start(text: str, start: int, end: int) -> int:
    i = start
    while i < end:
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == "#":
            return i
        i += 1
    return end


def _assignment(text: str, start: int, end: int) -> tuple[Word, str, int] | None:
    """(name, operator, value start) when the line is a variable assignment."""
    depth = 0
    i = start
    while i < end:
        c = text[i]
        if c == "$" and i + 1 < end and text[i + 1] in "({":
            depth += 1
            i += 2
            continue
        if depth and c in ")}":
            depth -= 1
        elif not depth and c in _STOPS:
            for op in _OPERATORS:
                if text.startswith(op, i):
                    return _named(text, start, i, op, i + len(op))
            if c in ":;":
                return None  # a rule
        i += 1
    return None


def _named(text: str, start: int, op_at: int, op: str, value_at: int
           ) -> tuple[Word, str, int] | None:
    head = text[start:op_at]
    for prefix in ("override ", "export ", "private "):
        stripped = head.lstrip()
        if stripped.startswith(prefix):
            head = stripped[len(prefix):]
    name = head.strip()
    if not name or any(c.isspace() for c in name):
        return None
    at = text.rfind(name, start, op_at)
    while value_at < len(text) and text[value_at] in " \t":
        value_at += 1
    return Word(name, at, at + len(name)), op, value_at


def lex_make(text: str) -> list[MakeLine]:
    lines: list[MakeLine] = []
    pos = 0
    in_define = False
    while pos < len(text):
        end = _logical_end(text, pos)
        first = text[pos:end].lstrip(" \t")
        head = first.split(None, 1)[0] if first.strip() else ""
        if in_define:
            in_define = head != "endef"
            kind = LineKind.DEFINE_BODY if in_define else LineKind.DIRECTIVE
            lines.append(MakeLine(kind, pos, end, end))
        elif text.startswith("\t", pos):
            lines.append(MakeLine(LineKind.RECIPE, pos, end, end, value_start=pos + 1))
        elif not first.strip():
            lines.append(MakeLine(LineKind.BLANK, pos, end, end))
        elif first.startswith("#"):
            lines.append(MakeLine(LineKind.COMMENT, pos, end, pos))
        else:
            content_end = _comment_start(text, pos, end)
            assignment = _assignment(text, pos, content_end)
            if head == "define":
                in_define = True
                lines.append(MakeLine(LineKind.DIRECTIVE, pos, end, content_end))
            elif assignment is not None:
                name, op, value_at = assignment
                lines.append(MakeLine(LineKind.ASSIGNMENT, pos, end, content_end, name, op,
                                      min(value_at, content_end)))
            elif head in DIRECTIVES:
                lines.append(MakeLine(LineKind.DIRECTIVE, pos, end, content_end))
            elif ":" in text[pos:content_end]:
                lines.append(MakeLine(LineKind.RULE, pos, end, content_end))
            else:
                lines.append(MakeLine(LineKind.OTHER, pos, end, content_end))
        pos = end + 1
    return lines
