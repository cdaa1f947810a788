"""`h2 = {a, b}` for a __half2 is ambiguous under HIP: the type is named
(hipport/rules/half2_assignment.py)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings


def convert(body: str) -> tuple[str, list[str]]:
    source = ("__global__ void k(__half2* o, __half a, __half b, float2* f, Pair* p,\n"
              "                  __nv_bfloat162* bo, __nv_bfloat16 c) {\n"
              f"  __half2 x, arr[2]; float2 g; __half2* q = o;\n  {body}\n}}\n")
    result = convert_source(source, Settings())
    line = result.output.decode().split("\n")[4].strip()
    return line, [f.code for f in result.findings if f.code == "HP307"]


@pytest.mark.parametrize("body, after", [
    pytest.param("x = {a, b};", "x = __half2{a, b};", id="local"),
    pytest.param("o[0] = {a, b};", "o[0] = __half2{a, b};", id="pointer-element"),
    pytest.param("arr[1] = {};", "arr[1] = __half2{};", id="array-element-empty"),
    pytest.param("q[2] = { b, a };", "q[2] = __half2{ b, a };", id="spaced"),
    pytest.param("bo[0] = {c, c};", "bo[0] = __hip_bfloat162{c, c};", id="bfloat162-renamed"),
])
def test_braced_assignment_names_the_type(body: str, after: str):
    assert convert(body) == (after, ["HP307"])


@pytest.mark.parametrize("body", [
    pytest.param("g = {1.f, 2.f};", id="float2"),
    pytest.param("f[0] = {1.f, 2.f};", id="float2-element"),
    pytest.param("o = {};", id="pointer-itself"),
    pytest.param("p->v = {a, b};", id="member-unknown-type"),
    pytest.param("x = __hadd2(x, x);", id="intrinsic-result"),
    pytest.param("__half2 y = {a, b};", id="initialisation"),
    pytest.param("undeclared = {a, b};", id="undeclared"),
])
def test_lookalikes_stay(body: str):
    assert convert(body) == (body, [])
