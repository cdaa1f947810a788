from __future__ import annotations

import pytest

from hipport.parse.pptokens import call_arguments, tokenize


def idents(text: bytes) -> list[bytes]:
    return [t.text for t in tokenize(text) if t.kind == "ident"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(b"cudaMalloc(p, n)", [b"cudaMalloc", b"p", b"n"], id="call"),
        pytest.param(b'printf("cudaMalloc %d", x)', [b"printf", b"x"], id="string-skipped"),
        pytest.param(b"x /* cudaFree */ y // cudaMalloc", [b"x", b"y"], id="comments-skipped"),
        pytest.param(b"c = 'a'; d", [b"c", b"d"], id="char-literal"),
        pytest.param(b'R"x(cudaMalloc)x" z', [b"z"], id="raw-string"),
        pytest.param(b'u8"cudaFree" w', [b"w"], id="prefixed-string"),
        pytest.param(b"0x1fULL + 1e-5f + a", [b"a"], id="numbers-are-not-identifiers"),
        pytest.param(b'"unterminated cudaFree', [], id="unterminated-string"),
        pytest.param(b"a \\\n b", [b"a", b"b"], id="line-continuation"),
    ],
)
def test_identifiers(text, expected):
    assert idents(text) == expected


def test_offsets_are_exact():
    text = b'  "s" cudaFree(p)'
    token = next(t for t in tokenize(text) if t.kind == "ident")
    assert text[token.start:token.end] == b"cudaFree"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(b"f(a, g(b, c), d[1,2])", [b"a", b"g(b, c)", b"d[1,2]"], id="nested"),
        pytest.param(b"f()", [], id="empty"),
        pytest.param(b"f(a", None, id="unbalanced"),
        # A literal is an argument too: `0xffffffff` is the mask of
        # `__shfl_up_sync(0xffffffff, v, d)`, not `v` (issue 26).
        pytest.param(b"f(0xffffffff, v, d)", [b"0xffffffff", b"v", b"d"], id="number-argument"),
        pytest.param(b'f("s", 1.5f, \'c\')', [b'"s"', b"1.5f", b"'c'"], id="literal-arguments"),
        pytest.param(b"f(1 + x, 2)", [b"1 + x", b"2"], id="literal-first-in-argument"),
    ],
)
def test_call_arguments(text, expected):
    tokens = list(tokenize(text))
    args = call_arguments(tokens, 1)
    if expected is None:
        assert args is None
    else:
        assert [text[s:e] for s, e in args] == expected
