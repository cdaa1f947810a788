"""``parse.digraphs.spell_out``: digraphs and trigraphs replaced by their
punctuation, same length, literals and comments untouched."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hipport.parse.digraphs import spell_out


@pytest.mark.parametrize("before, after", [
    pytest.param(b"void f() <% g(); %>", b"void f() {  g();  }", id="braces"),
    pytest.param(b"a<:0:> = 1;", b"a[ 0 ] = 1;", id="brackets"),
    pytest.param(b"%:include <cuda.h>", b" #include <cuda.h>", id="hash"),
    pytest.param(b"%:define C(a, b) a%:%:b", b" #define C(a, b) a  ##b", id="paste"),
    pytest.param(b"??=define X ??<??>", b"  #define X {    }", id="trigraph-run"),
    pytest.param(b"f() ??< x??(1??) = ??-y; ??>", b"f() {   x[  1  ] =   ~y;   }",
                 id="trigraphs"),
    pytest.param(b"a ??!??! b; c ??!= d;", b"a     || b; c   |= d;", id="operators-joined"),
    pytest.param(b"a<:::b:>", b"a[ ::b ]", id="lt-colon-colon-colon"),
    pytest.param(b"<%<:%>", b"{ [  }", id="mixed-run"),
    pytest.param(b"a ??'= b; c %:%: d", b"a   ^= b; c   ## d", id="operator-group"),
])
def test_spell_out_fixes(before: bytes, after: bytes):
    assert spell_out(before) == after
    assert len(spell_out(before)) == len(before)


@pytest.mark.parametrize("source", [
    pytest.param(b'printf("<% %> <: :> %: ??< ??>");', id="string"),
    pytest.param(b"// <% ??< %>\n", id="line-comment"),
    pytest.param(b"/* <% ??<\n %> */", id="block-comment"),
    pytest.param(b"c = '<'; d = '%';", id="chars"),
    pytest.param(b'r = R"x(<% )" %>)x";', id="raw-string"),
    pytest.param(b"n = 1'000'000; m = 0x1'f;", id="digit-separators"),
    pytest.param(b"std::vector<::std::string> v;", id="lt-colon-colon"),
    pytest.param(b"a < :: b; x ? y : > z;", id="spaced"),
    pytest.param(b"int plain(int x) { return x % 2; }", id="plain"),
])
def test_spell_out_noop(source: bytes):
    assert spell_out(source) == source


@settings(derandomize=True, max_examples=300)
@given(st.binary(max_size=200) | st.text("<%:>?!=()/'-\"/*\n ab", max_size=60).map(str.encode))
def test_spell_out_keeps_every_offset(data: bytes):
    out = spell_out(data)
    assert len(out) == len(data)
    assert all(a == b or chr(b) in "{}[]#\\^|~ " for a, b in zip(data, out))
