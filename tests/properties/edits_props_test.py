from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hipport.edits import Edit, Fix, apply_fixes

DATA = st.binary(max_size=200)


@st.composite
def data_and_fixes(draw):
    data = draw(DATA)
    n = len(data)
    fixes = []
    for _ in range(draw(st.integers(0, 8))):
        edits = []
        for _ in range(draw(st.integers(1, 3))):
            a = draw(st.integers(0, n))
            b = draw(st.integers(a, n))
            edits.append(Edit(a, b, draw(st.binary(max_size=6))))
        fixes.append(Fix(tuple(edits), title=str(len(fixes))))
    return data, fixes


@settings(derandomize=True, max_examples=300, deadline=None)
@given(DATA)
def test_no_fixes_no_change(data):
    assert apply_fixes(data, []).data == data


@settings(derandomize=True, max_examples=300, deadline=None)
@given(data_and_fixes(), st.randoms(use_true_random=False))
def test_result_independent_of_fix_order(case, rnd):
    data, fixes = case
    shuffled = list(fixes)
    rnd.shuffle(shuffled)
    assert apply_fixes(data, fixes).data == apply_fixes(data, shuffled).data


@settings(derandomize=True, max_examples=300, deadline=None)
@given(data_and_fixes())
def test_bytes_outside_applied_edits_are_preserved_in_order(case):
    data, fixes = case
    result = apply_fixes(data, fixes)
    assert len(result.applied) + len(result.skipped) == len(fixes)
    edits = sorted(e for f in result.applied for e in f.edits)
    # Rebuild the output independently: untouched gaps, then each edit's text.
    out, pos = b"", 0
    for e in edits:
        assert e.start >= pos  # applied edits never overlap
        out += data[pos:e.start] + e.text
        pos = e.end
    assert out + data[pos:] == result.data


@settings(derandomize=True, max_examples=200, deadline=None)
@given(data_and_fixes())
def test_every_skipped_fix_conflicts_with_an_applied_one_or_is_invalid(case):
    data, fixes = case
    result = apply_fixes(data, fixes)
    applied_spans = [(e.start, e.end) for f in result.applied for e in f.edits]
    for fix in result.skipped:
        spans = sorted((e.start, e.end) for e in fix.edits)
        self_conflict = any(a[1] > b[0] or a == b for a, b in zip(spans, spans[1:]))
        touches = any(s1 < e2 and s2 < e1 or s1 == e1 == s2 == e2 or s1 == e1 and s2 < s1 < e2
                      or s2 == e2 and s1 < s2 < e1
                      for s1, e1 in spans for s2, e2 in applied_spans)
        assert self_conflict or touches or fix.end > len(data)
