"""LineIndex resumes column counting from the previous finding on the same
line (linear on huge lines); it must agree with counting from scratch."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hipport.source import BOM, LineIndex

PIECES = [b"a", b"\n", b"\r", b"\xc3\xa9", b"\xe2\x82\xac", b"\xe2\x82", b"\x80", b"\xff", BOM]


def from_scratch(data: bytes, offset: int) -> tuple[int, int]:
    start = data.rfind(b"\n", 0, offset) + 1
    prefix = data[start:offset]
    if start == 0 and prefix.startswith(BOM):
        prefix = prefix[len(BOM):]
    return data.count(b"\n", 0, offset) + 1, len(prefix.decode("utf-8", "replace")) + 1


@settings(derandomize=True, max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join), st.data())
def test_locations_match_counting_from_scratch(data: bytes, draw) -> None:
    offsets = draw.draw(st.lists(st.integers(0, len(data)), min_size=1, max_size=12))
    if draw.draw(st.booleans()):
        offsets.sort()
    index = LineIndex(data)
    for offset in offsets:
        location = index.location(offset)
        assert (location.line, location.column) == from_scratch(data, offset), offset
