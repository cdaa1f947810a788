"""Edits whose result is known to be stable without converting it again.

The second pass of a conversion (``hipport.convert``) parses the output and
runs the conversion rules on it: a new parse error or a further fix means a
bug, and the file is left unchanged.  For the commonest edits that pass can
only confirm what holds by construction, and it costs a fifth of a run:

* **an identifier swapped for an identifier** (``cudaMalloc`` ->
  ``hipMalloc``).  tree-sitter has no symbol table: a token of the same kind
  in the same place gives the same tree.  The new name must not itself be a
  name the catalogue rewrites, or a second pass would rewrite it again.
* **an include path swapped for a path** inside the same ``<...>`` or
  ``"..."``, on the same terms.
* **a duplicate ``#include`` line removed**, and **the runtime include line
  inserted** where the front end said a new include goes: whole directive
  lines, at line starts, outside any other construct.

A file whose edits are all of these kinds skips the second pass; any other
edit (argument rewrites, launch rewrites, hazard fixes), a file that already
had parse errors, or a doubt, and the second pass runs as before.  The
property tests check the claim: the full second pass never objects to a file
this module lets through."""
from __future__ import annotations

import re
from typing import Iterable

from hipport.edits import Edit
from hipport.parse.model import Analysis
from hipport.table import MappingTable
from hipport.table.index import needs_attention

_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*\Z")
_PATH = re.compile(rb"[A-Za-z0-9_./+-]+\Z")
_INCLUDE_LINE = re.compile(rb"[ \t]*#[ \t]*include[ \t]*[<\"][A-Za-z0-9_./+-]+[>\"][ \t]*\r?\n\Z")
_RUNTIME_INCLUDES = (b"#include <hip/hip_runtime.h>\n", b"#include <hip/hip_runtime.h>\r\n")
_DELIMITERS = {b"<": b">", b'"': b'"'}
# Words the grammar treats specially: swapping one in (through a user rule,
# say) changes the tree.
_KEYWORDS = frozenset(
    b"alignas alignof asm auto bool break case catch char char16_t char32_t char8_t class "
    b"co_await co_return co_yield concept const consteval constexpr constinit const_cast "
    b"continue decltype default defined delete do double dynamic_cast else enum explicit "
    b"export extern false final float for friend goto if inline int long mutable namespace "
    b"new noexcept nullptr operator override private protected public register "
    b"reinterpret_cast requires restrict return short signed sizeof static static_assert "
    b"static_cast struct switch template this thread_local throw true try typedef typeid "
    b"typename union unsigned using virtual void volatile wchar_t while __global__ "
    b"__device__ __host__ __shared__ __constant__ __managed__ __restrict__ __launch_bounds__ "
    b"__forceinline__ __noinline__ __grid_constant__ __attribute__ __declspec _Atomic "
    b"__extension__ __inline __inline__ __asm__ __asm __volatile__ __thread __cdecl "
    b"__stdcall __fastcall __thiscall __vectorcall _unaligned __unaligned __based "
    b"_Nonnull _Nullable _Null_unspecified __clrcall __ptr32 __ptr64 __sptr __uptr "
    b"size_t ssize_t intptr_t uintptr_t ptrdiff_t max_align_t charptr_t nullptr_t int8_t "
    b"int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t NULL".split())
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def needs_second_pass(data: bytes, analysis: Analysis, edits: Iterable[Edit],
                      table: MappingTable) -> bool:
    """False only when every edit is of a kind listed above."""
    if analysis.error_count:
        return True
    return not all(_stable(data, analysis, edit, table) for edit in edits)


def _stable(data: bytes, analysis: Analysis, edit: Edit, table: MappingTable) -> bool:
    start, end, new = edit.start, edit.end, edit.text
    if start == end:
        return start == analysis.include_insertion and new in _RUNTIME_INCLUDES \
            and _at_line_start(data, start)
    old = data[start:end]
    if not new:
        return _INCLUDE_LINE.match(old) is not None and _at_line_start(data, start)
    if _IDENTIFIER.match(old) and _IDENTIFIER.match(new):
        return old not in _KEYWORDS and new not in _KEYWORDS and _whole_word(data, start, end) \
            and _final(table, new)
    if _PATH.match(old) and _PATH.match(new) and 0 < start and end < len(data):
        closing = _DELIMITERS.get(data[start - 1:start])
        return closing is not None and data[end:end + 1] == closing and _final(table, new)
    return False


def _final(table: MappingTable, name: bytes) -> bool:
    """A name the catalogue leaves alone (or does not know)."""
    row = table.rows.get(name.decode("ascii"))
    return row is None or not needs_attention(row)


def _whole_word(data: bytes, start: int, end: int) -> bool:
    return (start == 0 or data[start - 1] not in _WORD) and \
        (end == len(data) or data[end] not in _WORD)


def _at_line_start(data: bytes, offset: int) -> bool:
    # The line before must end the directive (no `\` continuation into ours).
    if offset == 0:
        return True
    if data[offset - 1:offset] != b"\n":
        return False
    before = offset - 2
    if before >= 0 and data[before:before + 1] == b"\r":
        before -= 1
    return before < 0 or data[before:before + 1] != b"\\"
