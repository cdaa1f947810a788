"""Findings for people: `path:line:col: CODE [*] message`, one per line.

* ``text``: every finding with its whole message;
* ``concise`` (convert's default): the explanation a catalogue entry or a
  hazard gives (the finding's note) is printed at its first finding only;
  later findings of the same code and note keep their first half, which is
  what differs between them.

``[*]`` marks a finding hipport has a fix for that is not in the file yet;
``[fixed]`` one whose fix this run applied (listed with ``--verbose``, or when
its code is ``listed_applied``: a version test resolved, a hazard's fix, an
API the target deprecates)."""
from __future__ import annotations

from collections import Counter
from typing import Sequence, TextIO

from hipport.output.fixes import describe, preview
from hipport.output.model import FixState, Reported
from hipport.output.options import Options


def render_full(items: Sequence[Reported], out: TextIO, options: Options) -> None:
    for item in items:
        out.write(line(item, item.message, options))
        out.write(fix_lines(item, options))


def render_concise(items: Sequence[Reported], out: TextIO, options: Options) -> None:
    noted: set[tuple[str, str]] = set()
    for item in items:
        text, note = item.message, item.note
        if note:
            if (item.code, note) in noted:
                text = item.headline
            noted.add((item.code, note))
        out.write(line(item, text, options))
        out.write(fix_lines(item, options))


def line(item: Reported, text: str, options: Options) -> str:
    p = options.palette
    marker = ""
    if options.fixable(item):
        marker = p.marker("[*]") + " "
    elif options.fixed(item):
        marker = p.marker("[fixed]") + " "
    return (f"{p.path(item.path)}:{item.line}:{item.column}: "
            f"{p.code(item.code, item.severity)} {marker}{text}\n")


def fix_lines(item: Reported, options: Options) -> str:
    """``--show-fixes``: the fix under its finding, before and after."""
    if not options.show_fixes or item.finding is None or item.fix_state is FixState.NONE:
        return ""
    finding = item.finding.finding
    assert finding.fix is not None
    text = describe(finding.fix)
    data = options.source(item.path)
    shown = preview(data, finding) if data is not None else None
    if shown is not None:
        before, after = shown
        text += f": `{before}` -> `{after}`" if after else f": `{before}` removed"
    p = options.palette
    state = " (applied)" if options.fixed(item) else ""
    return f"    {p.dim('=')} {text}{p.dim(state)}\n"


def repeated_notes(items: Sequence[Reported]) -> Counter[str]:
    """How many notes ``concise`` leaves out (already printed for the same
    code), per code."""
    seen: set[tuple[str, str]] = set()
    repeated: Counter[str] = Counter()
    for item in items:
        if item.note:
            key = (item.code, item.note)
            if key in seen:
                repeated[item.code] += 1
            seen.add(key)
    return repeated
