"""Spaced launch chevrons (`k << <g, b >> > (x)`): found, joined for the
parser at the same length, and joined in the code (HP312)."""
from __future__ import annotations

from hipport.api import convert_source
from hipport.compat.strategy import CompatStrategy
from hipport.parse.chevrons import join, spaced_launches
from hipport.settings import Settings

COMPAT_STRATEGY = CompatStrategy()

LAUNCH = b"void f(int *p) { k << <1, 64 >> > (p); }\n"


def test_joined_at_the_same_length():
    joined = join(LAUNCH)
    assert len(joined) == len(LAUNCH)
    assert joined == b"void f(int *p) { k <<< 1, 64  >>> (p); }\n"


def test_look_alikes_are_not_launches():
    for text in (b"template std::ostream& operator<< <int>(std::ostream&, const Box<int>&);\n",
                 b"std::vector<std::vector<int>> > x;\n",
                 b"bool b = x << 1 < 32 && y >> 1 > (z);\n",
                 b"// k << <1, 64 >> > (p);\n",
                 b'const char *s = "k << <1, 64 >> > (p)";\n',
                 b"k<<<1, 64>>>(p);\n"):
        assert spaced_launches(text) == [], text


def test_tabs_and_one_sided_spacing_are_joined():
    assert join(b"k<<\t<1, 2>>>(p);") == b"k<<< 1, 2>>>(p);"
    assert join(b"k<<<1, 2>> >(p);") == b"k<<<1, 2 >>>(p);"


def _kernel(launch: str) -> str:
    return f"__global__ void k(int *p) {{}}\nvoid f(int *p) {{\n  {launch}\n  g(p);\n}}\n"


def test_the_code_gets_joined_chevrons():
    result = convert_source(_kernel("k << <1, 64 >> > (p);"), name="a.cu")
    assert b"  k <<<1, 64 >>> (p);\n  g(p);\n" in result.output
    assert [f.code for f in result.findings].count("HP312") == 1
    assert "HP001" not in [f.code for f in result.findings]


def test_hip_launch_syntax_rewrites_a_spaced_launch_whole():
    result = convert_source(_kernel("k << <1, 64 >> > (p);"), Settings(launch_syntax="hip"),
                            name="a.cu")
    assert b"hipLaunchKernelGGL(k , 1, 64, 0, 0, p);" in result.output
    assert "HP312" not in [f.code for f in result.findings]


def test_compat_joins_them_and_counts_the_line():
    result = convert_source(_kernel("k << <1, 64 >> > (p);"), strategy=COMPAT_STRATEGY,
                            name="a.cu")
    assert b"  k <<<1, 64 >>> (p);\n" in result.output
    assert result.stats.changed_lines == 2  # the include, the launch


def test_a_joined_launch_is_left_alone():
    source = _kernel("k<<<1, 64>>>(p);")
    assert convert_source(source, strategy=COMPAT_STRATEGY, name="a.cu").output.count(
        b"k<<<1, 64>>>(p);") == 1
    assert "HP312" not in [f.code for f in convert_source(source, name="a.cu").findings]
