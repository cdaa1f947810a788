from __future__ import annotations

import pytest

from hipport.edits import Applicability, Edit, Fix, apply_fixes


def fix(*edits: tuple[int, int, bytes], title: str = "") -> Fix:
    return Fix(tuple(Edit(s, e, t) for s, e, t in edits), Applicability.SAFE, title)


def test_no_fixes_returns_same_bytes():
    data = b"a\r\nb\xff\x00"
    result = apply_fixes(data, [])
    assert result.data is data
    assert result.applied == () and result.skipped == ()


@pytest.mark.parametrize(
    ("data", "fixes", "expected"),
    [
        pytest.param(b"cudaFree(p);", [fix((0, 8, b"hipFree"))], b"hipFree(p);", id="replace"),
        pytest.param(b"f(s)", [fix((2, 2, b"HIP_SYMBOL("), (3, 3, b")"))], b"f(HIP_SYMBOL(s))",
                     id="two-insertions-one-fix"),
        pytest.param(b"abcdef", [fix((4, 6, b"X")), fix((0, 1, b"Y"))], b"YbcdX",
                     id="order-independent"),
        pytest.param(b"line\n", [fix((0, 5, b""))], b"", id="delete-line"),
        pytest.param(b"ab", [fix((1, 1, b"<")), fix((1, 2, b"B"))], b"a<B",
                     id="insertion-at-start-of-replaced-span"),
    ],
)
def test_apply_fixes(data, fixes, expected):
    result = apply_fixes(data, fixes)
    assert result.data == expected
    assert len(result.applied) == len(fixes)


def test_overlapping_fix_is_skipped_not_merged():
    first = fix((0, 4, b"AAAA"), title="first")
    second = fix((2, 6, b"BB"), title="second")
    result = apply_fixes(b"0123456789", [second, first])
    assert result.data == b"AAAA456789"
    assert result.applied == (first,)
    assert result.skipped == (second,)


def test_two_insertions_at_same_point_conflict():
    a, b = fix((3, 3, b"x")), fix((3, 3, b"y"))
    result = apply_fixes(b"abcdef", [a, b])
    assert len(result.applied) == 1 and len(result.skipped) == 1


def test_insertion_inside_replaced_span_conflicts():
    result = apply_fixes(b"abcdef", [fix((1, 5, b"Z")), fix((3, 3, b"!"))])
    assert result.data == b"aZf"
    assert len(result.skipped) == 1


def test_fix_beyond_end_is_skipped():
    result = apply_fixes(b"abc", [fix((2, 9, b"x"))])
    assert result.data == b"abc" and len(result.skipped) == 1


def test_fix_with_self_overlapping_edits_is_skipped():
    result = apply_fixes(b"abcdef", [fix((0, 3, b"x"), (2, 4, b"y"))])
    assert result.data == b"abcdef" and len(result.skipped) == 1


def test_edit_rejects_inverted_span():
    with pytest.raises(ValueError):
        Edit(5, 2, b"")
