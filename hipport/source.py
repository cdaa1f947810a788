"""Source bytes and the one place where byte offsets become lines and columns."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

BOM = b"\xef\xbb\xbf"


def newline_of(data: bytes) -> bytes:
    """The line ending lines added to ``data`` take: CRLF when it has any."""
    return b"\r\n" if b"\r\n" in data else b"\n"


@dataclass(frozen=True)
class Location:
    line: int  # 1-based
    column: int  # 1-based, in characters of the decoded line


@dataclass
class LineIndex:
    data: bytes
    _starts: list[int] = field(init=False, repr=False)
    _cursor: tuple[int, int, int] = field(init=False, repr=False, compare=False,
                                          default=(-1, 0, 1))

    def __post_init__(self) -> None:
        starts = [0]
        find = self.data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        self._starts = starts

    @property
    def line_count(self) -> int:
        n = len(self._starts)
        return n - 1 if self.data.endswith(b"\n") or not self.data else n

    def line_of(self, offset: int) -> int:
        """0-based line number of a byte offset."""
        return bisect.bisect_right(self._starts, offset) - 1

    def location(self, offset: int) -> Location:
        line = self.line_of(offset)
        start = self._starts[line]
        # Columns count characters from the line's start.  Findings come in
        # offset order, so carry on from the previous one on the same line:
        # one multi-megabyte line with thousands of findings stays linear.
        # (Decoding may restart at any byte that does not continue a UTF-8
        # sequence without changing the count.)
        cursor_line, cursor_offset, cursor_column = self._cursor
        if cursor_line == line and cursor_offset <= offset \
                and not _continues_utf8(self.data, cursor_offset):
            start, base = cursor_offset, cursor_column
        else:
            base = 1
        prefix = self.data[start:offset]
        if start == 0 and prefix.startswith(BOM):
            prefix = prefix[len(BOM):]
        column = base + len(prefix.decode("utf-8", errors="replace"))
        self._cursor = (line, offset, column)
        return Location(line + 1, column)

    def line_text(self, line: int) -> bytes:
        """The bytes of 1-based ``line`` without its line terminator."""
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n")

    def line_span(self, line: int) -> tuple[int, int]:
        """Byte span of 0-based ``line`` including its terminator."""
        start = self._starts[line]
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.data)
        return start, end


def _continues_utf8(data: bytes, offset: int) -> bool:
    return offset < len(data) and 0x80 <= data[offset] < 0xC0


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
              (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def not_text_reason(data: bytes) -> str | None:
    """Why ``data`` is not read as source (HP002), or None: UTF-16 and
    UTF-32 text (which a Windows editor may save) is told apart from binary
    content, since re-saving it as UTF-8 is all it takes.  Source files never
    contain NUL bytes in their first 8 KiB; binaries and wide text do."""
    head = data[:8192]
    if b"\x00" not in head:
        return None
    wide = next((name for bom, name in _WIDE_BOMS if head.startswith(bom)), None)
    if wide is None and len(head) >= 64:
        odd, even = head[1::2].count(0), head[0::2].count(0)
        if max(odd, even) > len(head) * 0.4 and min(odd, even) < len(head) * 0.05:
            wide = "UTF-16"  # ASCII text, every other byte NUL: no byte-order mark
    if wide is not None:
        return f"{wide} text (hipport reads UTF-8: re-save the file as UTF-8)"
    return "binary content (NUL bytes)"
