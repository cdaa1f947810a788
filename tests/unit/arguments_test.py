"""Argument rules (hipport/rules/arguments.py), the warp-mask part of issue
19: a `_sync` intrinsic loses its mask safely only when the mask is the whole
warp; any other mask makes the rewrite an unsafe fix, reported until applied."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from hipport.table import load_table

FULL = [
    pytest.param("0xffffffff", id="hex"),
    pytest.param("0xFFFFFFFFu", id="hex-upper-suffix"),
    pytest.param("~0u", id="complement"),
    pytest.param("-1", id="minus-one"),
    pytest.param("(0xffffffff)", id="parenthesised"),
    pytest.param("__activemask()", id="activemask"),
    pytest.param("FULL_MASK", id="named-full"),
]
PARTIAL = [
    pytest.param("active", id="variable"),
    pytest.param("0x0000ffff", id="half-warp"),
    pytest.param("mask & 0xff", id="expression"),
    pytest.param("__ballot_sync(0xffffffff, p)", id="a-vote"),
    pytest.param("MY_MASK", id="unknown-macro"),
]


def kernel(mask: str, define: str = "") -> str:
    return (f"{define}__device__ float f(float v, unsigned active, unsigned mask, bool p) {{\n"
            f"  return __shfl_sync({mask}, v, 0);\n}}\n")


def convert(source: str, **settings):
    result = convert_source(source, Settings(**settings))
    return result.output.decode(), result.findings


@pytest.mark.parametrize("mask", FULL)
def test_full_mask_is_dropped_safely(mask):
    out, findings = convert(kernel(mask))
    assert "return __shfl(v, 0);" in out
    shfl = [f for f in findings if f.finding.cuda_name == "__shfl_sync"]
    assert [f.code for f in shfl] == ["HP120"] and shfl[0].applied


@pytest.mark.parametrize("mask", PARTIAL)
def test_partial_or_unknown_mask_is_kept_and_reported(mask):
    out, findings = convert(kernel(mask))
    assert "return __shfl_sync(" in out and ", v, 0);" in out  # (a nested vote is renamed)
    (shfl,) = [f for f in findings if f.finding.cuda_name == "__shfl_sync"]
    assert shfl.code == "HP904" and not shfl.applied
    assert f"the mask `{mask}` is not a full-warp mask" in shfl.finding.message


@pytest.mark.parametrize("mask", PARTIAL)
def test_unsafe_fixes_drop_a_partial_mask_and_say_so(mask):
    out, findings = convert(kernel(mask), unsafe_fixes=True)
    assert "return __shfl(v, 0);" in out
    (shfl,) = [f for f in findings if f.finding.cuda_name == "__shfl_sync"]
    assert shfl.applied and "is not a full-warp mask" in shfl.finding.message


@pytest.mark.parametrize("define, converted", [
    ("#define WARP_MASK 0xffffffffu\n", True),
    ("#define WARP_MASK 0xffffffff  // all lanes\n", True),
    ("#define WARP_MASK 0x0000ffff\n", False),
])
def test_a_mask_macro_defined_in_the_file_counts_by_its_value(define, converted):
    out, _ = convert(kernel("WARP_MASK", define))
    assert ("return __shfl(v, 0);" in out) is converted


def test_every_drop_first_argument_entry_is_a_warp_intrinsic():
    # The mask test is only meaningful for warp intrinsics: any other user
    # of the rule would need its own review.
    names = sorted(m.cuda for m in load_table() if m.rule == "drop-first-argument")
    assert names and all(n.startswith("__") and n.endswith("_sync") for n in names)
