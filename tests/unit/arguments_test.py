"""Argument rules (hipport/rules/arguments.py), the warp-mask part of issues
19 and 26: a `_sync` intrinsic loses its mask silently only when the mask is
the whole warp; any other mask is dropped too (nothing else compiles on any
target), and the call is flagged (HP411)."""
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
@pytest.mark.parametrize("target", [(5, 2), (6, 4), None], ids=["5.2", "6.4", "no-target"])
def test_partial_or_unknown_mask_is_dropped_and_flagged(mask, target):
    # Issue 26: kept as it was, the call compiled on no target (HIP 5.2 has no
    # `_sync` forms; ROCm 6.4 declares them only under HIP_ENABLE_WARP_SYNC_BUILTINS
    # and with a 64-bit mask).  The default drops the mask and says so (HP411).
    out, findings = convert(kernel(mask), rocm_version=target)
    assert "return __shfl(v, 0);" in out
    (shfl,) = [f for f in findings if f.finding.cuda_name == "__shfl_sync" and f.code != "HP411"]
    assert shfl.code == "HP120" and shfl.applied
    (flag,) = [f for f in findings if f.code == "HP411"]
    assert f"the mask `{mask}` is not a full-warp mask" in flag.finding.message
    assert flag.location == shfl.location and flag.finding.fix is None


@pytest.mark.parametrize("mask", FULL)
def test_a_full_mask_is_not_flagged(mask):
    _, findings = convert(kernel(mask))
    assert not [f for f in findings if f.code == "HP411"]


@pytest.mark.parametrize("mask", PARTIAL)
def test_unsafe_fixes_change_nothing_for_a_partial_mask(mask):
    assert convert(kernel(mask), unsafe_fixes=True) == convert(kernel(mask))


def test_the_mask_of_a_call_in_a_macro_body_is_its_first_argument():
    # `0xffffffff`, a literal, was skipped and `v` taken for the mask (issue 26).
    source = "#define __shfl_up(v, d) __shfl_up_sync(0xffffffff, v, d)\n"
    out, findings = convert(source)
    assert out == "#define __shfl_up(v, d) __shfl_up(v, d)\n"
    assert [f.code for f in findings] == ["HP120"]
    out, findings = convert("#define UP(v, d) __shfl_up_sync(lanes, v, d)\n")
    assert out == "#define UP(v, d) __shfl_up(v, d)\n"
    (flag,) = [f for f in findings if f.code == "HP411"]
    assert "the mask `lanes`" in flag.finding.message


@pytest.mark.parametrize("define, full", [
    ("#define WARP_MASK 0xffffffffu\n", True),
    ("#define WARP_MASK 0xffffffff  // all lanes\n", True),
    ("#define WARP_MASK 0x0000ffff\n", False),
])
def test_a_mask_macro_defined_in_the_file_counts_by_its_value(define, full):
    out, findings = convert(kernel("WARP_MASK", define))
    assert "return __shfl(v, 0);" in out
    assert ("HP411" in [f.code for f in findings]) is not full


def test_every_drop_first_argument_entry_is_a_warp_intrinsic():
    # The mask test is only meaningful for warp intrinsics: any other user
    # of the rule would need its own review.
    names = sorted(m.cuda for m in load_table() if m.rule == "drop-first-argument")
    assert names and all(n.startswith("__") and n.endswith("_sync") for n in names)
