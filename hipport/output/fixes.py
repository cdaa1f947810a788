"""What a fix would write, shown as `before` -> `after` over the span it
touches (``--show-fixes``)."""
from __future__ import annotations

from hipport.edits import Applicability, Fix
from hipport.findings import Finding

_WIDTH = 72  # characters kept of a long snippet


def preview(data: bytes, finding: Finding) -> tuple[str, str] | None:
    """The text the finding and its fix cover, before and after the fix; None
    when ``data`` no longer holds the bytes the fix was made for."""
    fix = finding.fix
    if fix is None or not fix.edits:
        return None
    start, end = min(finding.start, fix.start), max(finding.end, fix.end)
    if end > len(data):
        return None
    before = data[start:end]
    after = bytearray()
    cursor = start
    for edit in sorted(fix.edits):
        after += data[cursor:edit.start] + edit.text
        cursor = edit.end
    after += data[cursor:end]
    return _snippet(before), _snippet(bytes(after))


def _snippet(text: bytes) -> str:
    shown = " ".join(text.decode("utf-8", "replace").split())
    if len(shown) > _WIDTH:
        half = (_WIDTH - 1) // 2
        shown = shown[:half] + "…" + shown[-half:]
    return shown


def describe(fix: Fix) -> str:
    """`safe fix` / `unsafe fix`, and its title."""
    kind = "unsafe fix" if fix.applicability is Applicability.UNSAFE else "fix"
    return f"{kind}: {fix.title}" if fix.title else kind
