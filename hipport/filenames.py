"""File names as the user sees them, and back.

A POSIX file name is bytes.  Python hands it over as ``str`` with every byte
that is not UTF-8 as a lone surrogate (``os.fsdecode``), which no output
stream, JSON document or terminal can carry.  Every name hipport shows goes
through ``shown``:

* a byte that is not part of valid UTF-8 is written ``\\xNN`` (two lowercase
  hex digits);
* a control character (C0, DEL, C1) or a line/paragraph separator is written
  as its UTF-8 bytes, ``\\xNN`` each (a newline is ``\\x0a``), so a name can
  neither break a `path:line:col:` line nor drive the terminal;
* a backslash is written ``\\\\``;
* everything else is itself.

The mapping is one-to-one, so ``unescape`` gives back the exact bytes (SARIF
URIs and the JSON report's ``path_hex`` use them)."""
from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

_HIDDEN = frozenset({"Cc", "Cs", "Zl", "Zp"})
_ESCAPE = re.compile(r"\\(\\|x[0-9a-f]{2})")


def shown(name: str) -> str:
    """``name`` (from ``os.fsdecode`` or ``str(path)``) escaped for display."""
    if name.isprintable() and "\\" not in name:  # the common case: nothing to do
        return name
    out: list[str] = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in _HIDDEN:
            out.extend(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
        else:
            out.append(ch)
    return "".join(out)


def shown_path(path: os.PathLike[str] | str) -> str:
    return shown(os.fspath(path))


def is_escaped(text: str) -> bool:
    """Whether ``shown`` changed the name: only then does ``text`` hold a backslash."""
    return "\\" in text


def unescape(text: str) -> bytes:
    """The bytes of the name ``shown`` turned into ``text``."""
    out = bytearray()
    pos = 0
    for match in _ESCAPE.finditer(text):
        out += text[pos:match.start()].encode("utf-8", "surrogateescape")
        escape = match.group(1)
        out += b"\\" if escape == "\\" else bytes([int(escape[1:], 16)])
        pos = match.end()
    out += text[pos:].encode("utf-8", "surrogateescape")
    return bytes(out)


def display_path(path: Path) -> str:
    """``path`` as shown to the user: relative to the current folder when
    inside it, escaped where it is not plain text (``hipport.filenames``)."""
    try:
        return shown_path(path.relative_to(Path.cwd()))
    except ValueError:
        return shown_path(path)
