"""conditions.blank: comments and literals become spaces, offsets and
newlines stay (its rules, pinned when it became one regex pass)."""
from __future__ import annotations

import pytest

from hipport.parse.conditions import blank


@pytest.mark.parametrize(("data", "expected"), [
    (b'int a; // x "y"\nb', b"int a;         \nb"),
    (b"a // one \\\ntwo\nb", b"a         \n   \nb"),  # a continued line comment
    (b"a // one \\\r\ntwo", b"a          \ntwo"),  # \r\n does not continue it
    (b"a /* x\ny */ b", b"a     \n     b"),
    (b"a /* never closed\nb", b"a                \n "),
    (b'f("a\\"b", \'c\')', b'f(      ,    )'),
    (b'"unclosed\n#if X', b"         \n#if X"),  # an unclosed literal ends with its line
    (b'"a\\\nb" c', b"   \n   c"),  # a backslash-newline continues a literal
    (b'x = "\\', b"x =   "),  # a backslash at the end
    (b"int n = 1'000'000; // n", b"int n = 1'000'000;     "),  # digit separators
    (b"u8'a' _'b'", b"u8'a' _'b'"),  # after a letter or `_`: a separator
    (b"\xc3'b'", b"\xc3'b'"),  # after a byte whose Latin-1 character is a letter
    (b"\xab'b'", b"\xab   "),  # ... and not after any other byte
    (b"a / b * c", b"a / b * c"),
])
def test_blank(data: bytes, expected: bytes) -> None:
    assert blank(data) == expected
    assert len(blank(data)) == len(data)
