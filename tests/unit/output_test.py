"""The findings output model and formats (hipport/output): what a listed
finding says, its fix state, the concise format's notes, fix previews,
statistics, colour decisions."""
from __future__ import annotations

import io
import json

import pytest

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding, LocatedFinding
from hipport.output import FORMATS, Options, Reported, render
from hipport.output.fixes import preview
from hipport.output.model import FixState
from hipport.output.statistics import count_codes
from hipport.output.style import color_diff, color_wanted
from hipport.source import Location

NOTE = "a long explanation of the API that is the same at every use"


def reported(code: str = "HP904", message: str = f"`a` -> `b`: {NOTE}", note: str | None = NOTE,
             fix: Fix | None = None, applied: bool = False, line: int = 1) -> Reported:
    finding = Finding(code, message, 0, 1, fix=fix, note=note)
    return Reported.of("k.cu", LocatedFinding(finding, Location(line, 1), Location(line, 2),
                                              applied))


def listed(fmt: str, items: list[Reported], **options) -> str:
    out = io.StringIO()
    render(fmt, items, out, Options(**options))
    return out.getvalue()


def test_headline_is_the_message_without_its_note():
    item = reported()
    assert item.headline == "`a` -> `b`" and item.note == NOTE
    unnoted = reported(message="`x` has a problem", note=NOTE)  # the note is not in it
    assert unnoted.headline == "`x` has a problem" and unnoted.note == ""


@pytest.mark.parametrize("applicability, applied, state", [
    (Applicability.SAFE, True, FixState.APPLIED),
    (Applicability.SAFE, False, FixState.SAFE),
    (Applicability.UNSAFE, False, FixState.UNSAFE),
    (Applicability.DISPLAY_ONLY, False, FixState.NONE),
])
def test_fix_state(applicability, applied, state):
    fix = Fix((Edit(0, 1, b"b"),), applicability)
    assert reported(fix=fix, applied=applied).fix_state is state
    assert reported().fix_state is FixState.NONE


def test_concise_prints_each_note_once_text_every_time():
    items = [reported(line=1), reported(line=2), reported(code="HP901", line=3)]
    concise = listed("concise", items).splitlines()
    assert concise == [f"k.cu:1:1: HP904 `a` -> `b`: {NOTE}", "k.cu:2:1: HP904 `a` -> `b`",
                       f"k.cu:3:1: HP901 `a` -> `b`: {NOTE}"]  # another code: its own note
    assert all(NOTE in line for line in listed("text", items).splitlines())


def test_markers_depend_on_whether_fixes_are_written():
    unsafe = reported(fix=Fix((Edit(0, 1, b"b"),), Applicability.UNSAFE))
    applied = reported(fix=Fix((Edit(0, 1, b"b"),)), applied=True)
    assert " [*] " in listed("text", [unsafe])
    assert " [fixed] " in listed("text", [applied])
    # a check writes nothing: an applied fix is one `hipport convert` would make
    assert " [*] " in listed("text", [applied], fixes_written=False)


def test_preview_of_a_fix():
    data = b"int lane = threadIdx.x & 31;"
    start = data.index(b"threadIdx")
    edit = Edit(data.index(b"31"), data.index(b"31") + 2, b"(warpSize - 1)")
    finding = Finding("HP401", "m", start, len(data) - 1, fix=Fix((edit,), Applicability.UNSAFE))
    assert preview(data, finding) == ("threadIdx.x & 31", "threadIdx.x & (warpSize - 1)")
    assert preview(b"short", finding) is None  # not the bytes the fix was made for


def test_statistics_rows():
    unsafe = Fix((Edit(0, 1, b"b"),), Applicability.UNSAFE)
    items = [reported(fix=unsafe), reported(), reported(code="HP901")]
    rows = count_codes(items, Options())
    assert [(r.code, r.count, r.fixable) for r in rows] == [("HP904", 2, 1), ("HP901", 1, 0)]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_renders_an_empty_list(fmt):
    text = listed(fmt, [])
    if fmt in ("json", "sarif"):  # an empty document, still valid
        assert json.loads(text)
    else:
        assert text == ""


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("choice, tty, env, wanted", [
    ("auto", True, {}, True),
    ("auto", False, {}, False),
    ("auto", True, {"NO_COLOR": "1"}, False),
    ("auto", True, {"TERM": "dumb"}, False),
    ("always", False, {"NO_COLOR": "1"}, True),
    ("never", True, {}, False),
])
def test_color_wanted(monkeypatch, choice, tty, env, wanted):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert color_wanted(choice, _Stream(tty)) is wanted


def test_color_diff_keeps_the_bytes():
    diff = b"--- a/k.cu\n+++ b/k.cu\n@@ -1 +1 @@\n-caf\xe9\r\n+hip\n same\n"
    coloured = color_diff(diff)
    assert coloured.replace(b"\x1b[0m", b"").replace(b"\x1b[31m", b"").replace(
        b"\x1b[32m", b"").replace(b"\x1b[36m", b"").replace(b"\x1b[1m", b"") == diff
    assert b"\x1b[31m-caf\xe9\x1b[0m\r\n" in coloured
