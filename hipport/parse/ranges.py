"""A huge file's tree queried one byte range at a time.

Every capture or match of a query over a whole tree is a Python object held
until the run ends: for a file of tens of megabytes they take more memory
than the tree itself.  Over ranges of about a megabyte, each range's results
can be read and dropped before the next are made."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node, Query, QueryCursor

# Above this size a file's tree is queried over ranges; below it, at once.
WHOLE_TREE_BYTES = 2_000_000
CHUNK_BYTES = 1_000_000

Range = tuple[int, int]


def byte_ranges(root: Node, chunk: int | None = None) -> Iterator[Range]:
    """``[low, high)`` ranges that cover ``root`` in order, each about
    ``chunk`` bytes, starting and ending between two nodes (a node larger than
    ``chunk``, an include guard's `#ifndef` or a namespace around the whole
    file, is split between its children).  A query over one range also
    returns the nodes that cross its ends: a result is the range's when its
    first node starts in it, so that each is read once."""
    chunk = chunk or CHUNK_BYTES
    units = _units(root, chunk)
    first = 0
    while first < len(units):
        last = first
        while last + 1 < len(units) and \
                units[last + 1].end_byte - units[first].start_byte <= chunk:
            last += 1
        low = 0 if first == 0 else units[first].start_byte
        high = units[last + 1].start_byte if last + 1 < len(units) else root.end_byte + 1
        yield low, high
        first = last + 1


def range_cursors(root: Node, query: Query,
                  chunk: int | None = None) -> Iterator[tuple[QueryCursor, Range]]:
    """A cursor of ``query`` for each of ``byte_ranges(root, chunk)``."""
    for low, high in byte_ranges(root, chunk):
        cursor = QueryCursor(query)
        cursor.set_byte_range(low, high)
        yield cursor, (low, high)


def _units(root: Node, chunk: int) -> list[Node]:
    """``root``'s children in order, each larger than ``chunk`` replaced by
    its own children (and so on down)."""
    units: list[Node] = []
    stack = list(reversed(root.children))
    while stack:
        node = stack.pop()
        if node.end_byte - node.start_byte > chunk and node.child_count:
            stack.extend(reversed(node.children))
        else:
            units.append(node)
    return units
