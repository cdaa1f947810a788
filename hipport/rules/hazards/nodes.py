"""What every hazard rule needs from the syntax tree: compiled queries, node
text, and whether a node sits in device code."""
from __future__ import annotations

import bisect
import functools
from typing import Iterable, Iterator, NamedTuple

from tree_sitter import Node, Query, QueryCursor, Tree

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.parse import ranges
from hipport.parse.ranges import range_cursors
from hipport.parse.syntax import LANGUAGE
from hipport.rules.registry import Context, warm_up_step

Match = dict[str, list[Node]]
DEVICE_QUALIFIERS = frozenset({"__global__", "__device__"})


@functools.lru_cache(maxsize=None)
def compile_query(source: str) -> Query:
    return Query(LANGUAGE, source)


def matches(ctx: Context, source: str, node: Node | None = None) -> Iterator[Match]:
    """Matches of ``source`` under ``node`` (default: the file's root).

    Other front ends have no tree-sitter tree; hazard rules then find nothing."""
    if node is not None:
        yield from matches_under(node, source)
        return
    yield from context_matches(ctx, source)


# Every rule asks for the whole tree's matches of its own query.  Running each
# query separately walks the tree once per rule, and compiling each costs
# more than running it; instead the rules' queries are registered at import,
# compiled into one query once per process, and the tree is walked once, its
# matches shared out by query.  A query nobody registered is added (and the
# combined query recompiled) the first time it is asked for.
_KNOWN_QUERIES: list[str] = []


def query(source: str) -> str:
    """Registers a rule's whole-tree query (at import) and returns it."""
    if source not in _KNOWN_QUERIES:
        _KNOWN_QUERIES.append(source)
    return source


@warm_up_step("hazard-queries")
def compile_registered() -> object:
    return _combined(tuple(_KNOWN_QUERIES))


def context_matches(ctx: Context, source: str) -> Iterable[Match]:
    """The whole tree's matches of ``source``.  They are kept in the rule
    run's context, so they go when its rules are done: at 5 MB of input they
    hold more memory than the tree itself."""
    tree = ctx.analysis.tree
    if not isinstance(tree, Tree):
        return []
    if tree.root_node.end_byte > ranges.WHOLE_TREE_BYTES:
        return chunked_matches(tree.root_node, source)
    if source not in _KNOWN_QUERIES:
        _KNOWN_QUERIES.append(source)
    sources = tuple(_KNOWN_QUERIES)
    cached = ctx.memo.get(_MEMO)
    if not isinstance(cached, _Found) or cached.sources != sources:
        cached = _Found(sources, _matches_by_query(tree, sources))
        ctx.memo[_MEMO] = cached
    return cached.matches.get(source, [])


@functools.lru_cache(maxsize=None)
def _combined(sources: tuple[str, ...]) -> tuple[Query, tuple[str, ...]]:
    combined = Query(LANGUAGE, "\n".join(sources))
    # Which source each pattern came from: pattern i of the combined query
    # starts at byte pattern_start(i); sources are joined with one newline.
    starts, offset = [], 0
    for source in sources:
        starts.append(offset)
        offset += len(source.encode()) + 1
    owners = tuple(sources[bisect.bisect_right(starts, combined.start_byte_for_pattern(i)) - 1]
                   for i in range(combined.pattern_count))
    return combined, owners


_MEMO = "hazard-matches"


class _Found(NamedTuple):
    sources: tuple[str, ...]  # the combined query's parts when it ran
    matches: dict[str, list[Match]]


def _matches_by_query(tree: Tree, sources: tuple[str, ...]) -> dict[str, list[Match]]:
    query, owners = _combined(sources)
    found: dict[str, list[Match]] = {}
    for index, captures in QueryCursor(query).matches(tree.root_node):
        found.setdefault(owners[index], []).append(captures)
    return found


# Held at once, a file's matches take about 30 bytes per byte of input, more
# than its tree (a 50 MB file peaked at 9.2 GB).  A file larger than
# WHOLE_TREE_BYTES is matched one query at a time over ranges of its
# top-level declarations, each range's matches dropped once read: bounded
# memory, for three to four times the query time (0.5 s per MB).


def chunked_matches(root: Node, source: str, chunk: int | None = None) -> Iterator[Match]:
    """The matches of ``source`` under ``root``, in the order one run over the
    whole tree gives them, found over ranges of about ``chunk`` bytes
    (``hipport.parse.ranges``).  A match is reported by the range its first
    node starts in."""
    for cursor, (low, high) in range_cursors(root, compile_query(source), chunk):
        for _, captures in cursor.matches(root):
            start = min((node.start_byte for nodes in captures.values() for node in nodes),
                        default=low)
            if low <= start < high:
                yield captures


def matches_under(node: Node, source: str) -> Iterator[Match]:
    for _, captures in QueryCursor(compile_query(source)).matches(node):
        yield captures


def text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def enclosing_function(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        parent = parent.parent
    return parent


def is_device_function(function: Node | None) -> bool:
    return function is not None and any(c.type in DEVICE_QUALIFIERS for c in function.children)


def in_device_code(node: Node) -> bool:
    return is_device_function(enclosing_function(node))


def identifiers(node: Node) -> set[str]:
    """Identifier names in a (small) subtree; `threadIdx.x` gives `threadIdx`."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.add(text(current))
        stack.extend(current.named_children)
    return found


def hazard(code: str, message: str, node: Node, edits: tuple[Edit, ...] = (),
           applicability: Applicability = Applicability.DISPLAY_ONLY,
           title: str = "", note: str | None = None) -> Finding:
    fix = Fix(edits, applicability, title) if edits else None
    return Finding(code, message, node.start_byte, node.end_byte, fix=fix, note=note)


def replace(node: Node, new: str) -> Edit:
    return Edit(node.start_byte, node.end_byte, new.encode())


def may_hold_device_code(ctx: Context) -> bool:
    """Whether the file can hold device code at all.  Warp and lane hazards
    only exist there; a host-only file (most files of a library-heavy code
    base) then skips the tree walk.  The bytes test catches device functions
    the front end's keywords miss (`__device__` spelled inside a macro)."""
    return ctx.analysis.device_syntax or b"__device__" in ctx.data or b"__global__" in ctx.data


class Declared(NamedTuple):
    type: str        # the type specifier as written, spaces normalised: `unsigned int`
    indirection: int  # pointers and array dimensions of the declarator: `T* p[2]` is 2


_DECLARATIONS = frozenset({"declaration", "parameter_declaration"})
_WRAPPERS = {"init_declarator": 0, "pointer_declarator": 1, "array_declarator": 1,
             "reference_declarator": 0, "parenthesized_declarator": 0}


def _declarators(node: Node, depth: int = 0) -> Iterator[tuple[str, int]]:
    if node.type == "identifier":
        yield text(node), depth
    elif node.type in _WRAPPERS:
        inner = node.child_by_field_name("declarator")
        if inner is None and node.type == "reference_declarator":
            inner = next((c for c in node.named_children), None)
        if inner is not None:
            yield from _declarators(inner, depth + _WRAPPERS[node.type])


def declared_type(function: Node | None, name: str) -> Declared | None:
    """How ``name`` is declared in ``function`` (its parameters and body), when
    every declaration of that name there says the same; None when it is not
    declared there (a global, a member, a macro) or declared differently."""
    if function is None:
        return None
    found: set[Declared] = set()
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in _DECLARATIONS:
            kind = node.child_by_field_name("type")
            for child in node.children_by_field_name("declarator"):
                for declared, depth in _declarators(child):
                    if declared == name and kind is not None:
                        found.add(Declared(" ".join(text(kind).split()), depth))
        stack.extend(node.named_children)
    return found.pop() if len(found) == 1 else None
