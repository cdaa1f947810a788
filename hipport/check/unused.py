"""Unused suppressions: `// hipport: ignore[...]` comments that silence nothing.

The conversion drops suppressed findings before anyone sees them, so the file
is analysed once more with its directives disarmed (`hipport:` becomes
`hipport_`, same length, so every offset is unchanged) and the directives
are matched against everything that second run finds.  Only files that
contain a directive pay for this, and only when it is asked for."""
from __future__ import annotations

from pathlib import Path

from hipport.check.model import UNUSED_SUPPRESSION, Violation
from hipport.convert import convert_bytes
from hipport.parse.model import Backend
from hipport.settings import Settings
from hipport.source import LineIndex
from hipport.suppress import _DIRECTIVE, ALL, Suppressions
from hipport.table import MappingTable


def disarm(data: bytes) -> bytes:
    out = bytearray(data)
    for match in _DIRECTIVE.finditer(data):
        colon = data.index(b"hipport:", match.start()) + len(b"hipport")
        out[colon:colon + 1] = b"_"
    return bytes(out)


def unused_suppressions(display: str, data: bytes, backend: Backend, table: MappingTable,
                        settings: Settings, path: Path | None = None) -> list[Violation]:
    if b"hipport:" not in data:
        return []
    index = LineIndex(data)
    suppressions = Suppressions.parse(data, index)
    if not suppressions.items:
        return []
    result = convert_bytes(disarm(data), backend, table, settings, path)
    suppressions.filter([f.finding for f in result.findings], index)
    out = []
    for item, codes in suppressions.unused():
        text = index.line_text(item.line + 1)
        directive = max(0, text.find(b"hipport:"))
        opener = max(text.rfind(b"//", 0, directive), text.rfind(b"/*", 0, directive), 0)
        column = len(text[:opener].decode("utf-8", "replace")) + 1
        where = "on this line or the next" if len(item.applies_to) > 1 else "on this line"
        what = "no finding" if ALL in codes else f"no {', '.join(sorted(codes))} finding"
        out.append(Violation(display, item.line + 1, column, item.line + 1, column,
                             UNUSED_SUPPRESSION, f"unused suppression: {what} {where}; remove it"))
    return out
