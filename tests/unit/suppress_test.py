from __future__ import annotations

import pytest

from hipport.api import convert_source


def codes(source: str) -> list[str]:
    return [f.code for f in convert_source(source).findings]


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("void f() { cudaMadeUpCall(1); } // hipport: ignore[HP900]\n", id="same-line"),
        pytest.param("// hipport: ignore[HP900]\nvoid f() { cudaMadeUpCall(1); }\n",
                     id="line-above"),
        pytest.param("void f() { cudaMadeUpCall(1); } /* hipport: ignore */\n", id="all-codes"),
        pytest.param("void f() { cudaMadeUpCall(1); } // hipport:ignore[hp900, HP901]\n",
                     id="lowercase-and-list"),
    ],
)
def test_suppressed(source):
    assert "HP900" not in codes(source)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("void f() { cudaMadeUpCall(1); } // hipport: ignore[HP901]\n",
                     id="other-code"),
        pytest.param("void f() { cudaMadeUpCall(1); int x; } // see hipport docs\n",
                     id="not-a-directive"),
        pytest.param("// hipport: ignore[HP900]\n\nvoid f() { cudaMadeUpCall(1); }\n",
                     id="two-lines-above"),
        pytest.param('void f() { cudaMadeUpCall(1); puts("hipport: ignore"); }\n',
                     id="inside-a-string"),
    ],
)
def test_not_suppressed(source):
    assert "HP900" in codes(source)


def test_suppressed_fix_is_not_applied():
    source = "void f() { cudaFree(p); } // hipport: ignore[HP101]\nvoid g() { cudaFree(q); }\n"
    assert convert_source(source).output.decode() == (
        "void f() { cudaFree(p); } // hipport: ignore[HP101]\nvoid g() { hipFree(q); }\n")
