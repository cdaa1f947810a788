"""A small tokenizer for preprocessor text that tree-sitter leaves raw
(`#define` bodies): identifiers, literals and punctuation, with comments
skipped, offsets relative to the text.  Literals are tokens of their own
(never identifiers: a name inside a string is data), so that an argument
that is only a literal (`f(0xffffffff, v)`) is still an argument."""
from __future__ import annotations

from typing import Iterator, NamedTuple

_IDENT_START = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_IDENT_CHAR = _IDENT_START | frozenset(b"0123456789")
_DIGITS = frozenset(b"0123456789")
_STRING_PREFIXES = (b"u8R", b"uR", b"UR", b"LR", b"R", b"u8", b"u", b"U", b"L")


class Token(NamedTuple):
    kind: str  # "ident" | "literal" | "punct"
    text: bytes
    start: int
    end: int


def tokenize(text: bytes) -> Iterator[Token]:
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in b" \t\r\n\f\v\\":
            i += 1
        elif text.startswith(b"//", i):
            nl = text.find(b"\n", i)
            i = n if nl == -1 else nl
        elif text.startswith(b"/*", i):
            close = text.find(b"*/", i + 2)
            i = n if close == -1 else close + 2
        elif c in b"\"'":
            end = _skip_quoted(text, i)
            yield Token("literal", text[i:end], i, end)
            i = end
        elif c in _DIGITS or (c == 0x2E and i + 1 < n and text[i + 1] in _DIGITS):
            start = i
            i += 1
            while i < n and (text[i] in _IDENT_CHAR or text[i] == 0x2E
                             or (text[i] in b"+-" and text[i - 1] in b"eEpP")):
                i += 1
            yield Token("literal", text[start:i], start, i)
        elif c in _IDENT_START:
            j = i + 1
            while j < n and text[j] in _IDENT_CHAR:
                j += 1
            word = text[i:j]
            if j < n and text[j] in b"\"'" and word in _STRING_PREFIXES:
                end = _skip_raw(text, j) if word.endswith(b"R") else _skip_quoted(text, j)
                yield Token("literal", text[i:end], i, end)
                i = end
                continue
            yield Token("ident", word, i, j)
            i = j
        else:
            yield Token("punct", text[i:i + 1], i, i + 1)
            i += 1


def _skip_quoted(text: bytes, i: int) -> int:
    quote = text[i]
    i += 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == quote or c == 0x0A:
            return i + 1
        i += 1
    return n


def _skip_raw(text: bytes, i: int) -> int:
    # R"delim( ... )delim" -- text[i] is the opening quote.
    paren = text.find(b"(", i)
    if paren == -1:
        return len(text)
    closing = b")" + text[i + 1:paren] + b'"'
    close = text.find(closing, paren)
    return len(text) if close == -1 else close + len(closing)


def call_arguments(tokens: list[Token], open_index: int) -> tuple[tuple[int, int], ...] | None:
    """Spans of the top-level arguments of the call whose `(` is tokens[open_index]."""
    if open_index >= len(tokens) or tokens[open_index].text != b"(":
        return None
    depth = 0
    args: list[tuple[int, int]] = []
    arg_start: int | None = None
    arg_end = 0
    for tok in tokens[open_index:]:
        if tok.text in (b"(", b"[", b"{"):
            depth += 1
            if depth == 1:
                continue
        elif tok.text in (b")", b"]", b"}"):
            depth -= 1
            if depth == 0:
                if arg_start is not None:
                    args.append((arg_start, arg_end))
                return tuple(args)
        elif tok.text == b"," and depth == 1:
            if arg_start is not None:
                args.append((arg_start, arg_end))
            arg_start = None
            continue
        if arg_start is None:
            arg_start = tok.start
        arg_end = tok.end
    return None
