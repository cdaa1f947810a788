"""`__activemask()` -> `__ballot(1)` (argument rule activemask-as-ballot), on
every target release, and what the rule leaves alone."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

DEVICE = "__device__ unsigned long long f(float v) {{ {} }}"

FIXES = [
    pytest.param("return __activemask();", "return __ballot(1);", id="call"),
    pytest.param("return __activemask( );", "return __ballot( 1);", id="call-with-space"),
    pytest.param("return __activemask ();", "return __ballot (1);", id="space-before-parens"),
    pytest.param("return __popcll(__activemask()) + 1;", "return __popcll(__ballot(1)) + 1;",
                 id="nested-argument"),
    # The mask a warp `_sync` call drops goes with it: no rename inside it, no overlap.
    pytest.param("return __shfl_sync(__activemask(), v, 0);", "return __shfl(v, 0);",
                 id="inside-a-dropped-mask"),
    pytest.param("return __ballot_sync(__activemask(), v > 0);", "return __ballot(v > 0);",
                 id="inside-a-dropped-ballot-mask"),
]


@pytest.mark.parametrize("target", [(5, 2), (6, 4)], ids=["5.2", "6.4"])
@pytest.mark.parametrize(("before", "after"), FIXES)
def test_activemask_becomes_a_ballot_of_the_active_lanes(before, after, target):
    result = convert_source(DEVICE.format(before), Settings(rocm_version=target))
    assert result.output.decode().endswith(DEVICE.format(after))
    assert not [f.code for f in result.findings if not f.applied and f.code != "HP405"]


NOOPS = [
    pytest.param("auto p = &__activemask;", id="address-not-a-call"),
    pytest.param("#define MASK __activemask\n", id="macro-body-not-a-call"),
]


@pytest.mark.parametrize("source", NOOPS)
def test_activemask_not_called_is_left_for_review(source):
    result = convert_source(source)
    assert result.output.decode() == source
    assert [f.code for f in result.findings if f.finding.cuda_name == "__activemask"] == ["HP904"]


def test_look_alikes_stay():
    source = "int my__activemask(); int x = my__activemask(); int __activemask_count;\n"
    assert convert_source(source).output.decode() == source
