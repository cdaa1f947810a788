"""Digraphs and trigraphs, spelled out for the parser.

The tree-sitter grammar knows neither the digraphs (`<% %> <: :> %: %:%:`)
nor the trigraphs (`??< ??> ??( ??) ??= ??/ ??' ??! ??-`).  Code written
with them parsed as errors, and error recovery read a call such as
`cudaFree(0);` inside `<% ... %>` as the declaration of a variable named
`cudaFree`: the reference vanished from the conversion and from the counts.

``spell_out`` gives the parser the same text with each run of such tokens
replaced by the punctuation it stands for, padded with spaces to the same
length, so every byte offset (every node, every edit) stays valid for the
original bytes, which are what gets edited.  Openers are placed at the start
of their span and closers at its end, so a node spans the original tokens
whole; operators side by side are placed together at the end of their
spans (`??!??!` is `||`, `%:%:` is `##`).
Comments, string and character literals (raw strings too) are left alone,
and `<::` is not a digraph unless followed by `:` or `>` (C++11 [lex.pptoken]).
"""
from __future__ import annotations

import re

_QUICK = (b"<%", b"%>", b"<:", b":>", b"%:", b"??")
_SPELLING = {
    b"<%": b"{", b"%>": b"}", b"<:": b"[", b":>": b"]", b"%:%:": b"##", b"%:": b"#",
    b"??<": b"{", b"??>": b"}", b"??(": b"[", b"??)": b"]", b"??=": b"#", b"??/": b"\\",
    b"??'": b"^", b"??!": b"|", b"??-": b"~",
}
_TOKEN = rb"%:%:|<%|%>|<:(?!:(?![:>]))|:>|%:|\?\?[<>()=/'!-]"
# Comments and literals, where nothing is spelled out (a verbose pattern,
# one named group: delim).  hipport.parse.chevrons skips them too.
SKIP = rb"""
        //(?:\\\r?\n|[^\n])*                                # line comment (continued lines)
      | /\*.*?(?:\*/|\Z)                                    # block comment
      | R"(?P<delim>[^\s()\\"]{0,16})\(.*?(?:\)(?P=delim)"|\Z)  # raw string
      | "(?:\\.|[^"\\\n])*"?                                # string (to the line's end)
      | [0-9][0-9A-Za-z_.]*(?:'[0-9A-Za-z_.]+)+             # number with digit separators
      | '(?:\\.|[^'\\\n])*'?                                # character literal
"""
_SCAN = re.compile(rb"(?P<skip>" + SKIP + rb") | (?P<run>(?:" + _TOKEN + rb")+)", re.S | re.X)
_ONE = re.compile(_TOKEN)


def spell_out(data: bytes) -> bytes:
    """``data`` with digraphs and trigraphs outside literals and comments
    replaced by their punctuation; the same length, the same bytes elsewhere."""
    if not any(q in data for q in _QUICK):
        return data
    out = bytearray(data)
    for match in _SCAN.finditer(data):
        if match.group("run") is not None:
            _spell_run(data, match.start(), match.end(), out)
    return bytes(out)


def _spell_run(data: bytes, start: int, end: int, out: bytearray) -> None:
    group_start, group = -1, b""  # operators side by side: `??!??!` is `||`

    def flush(until: int) -> None:
        if group:
            out[group_start:until] = group.rjust(until - group_start)

    last = start
    for token in _ONE.finditer(data, start, end):
        char = _SPELLING[token.group()]
        if char in (b"{", b"[", b"}", b"]"):
            flush(token.start())
            group = b""
            width = token.end() - token.start()
            out[token.start():token.end()] = char.ljust(width) if char in (b"{", b"[") \
                else char.rjust(width)
        else:
            if not group:
                group_start = token.start()
            group += char
        last = token.end()
    flush(last)
