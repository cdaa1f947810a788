"""What every hazard rule needs from the syntax tree: compiled queries, node
text, and whether a node sits in device code."""
from __future__ import annotations

import functools
from typing import Iterator

from tree_sitter import Node, Query, QueryCursor, Tree

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.parse.syntax import LANGUAGE
from hipport.rules import Context

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
    tree = ctx.analysis.tree
    if isinstance(tree, Tree):
        yield from tree_matches(tree, source)


# Every rule asks for the whole tree's matches of its own query.  Running each
# query separately walks the tree once per rule; instead the queries seen so
# far are combined into one and the tree is walked once, its matches shared
# out by query.  The list only grows (to the number of rule queries).
_KNOWN_QUERIES: list[str] = []


def tree_matches(tree: Tree, source: str) -> list[Match]:
    if source not in _KNOWN_QUERIES:
        _KNOWN_QUERIES.append(source)
    return _matches_by_query(tree, tuple(_KNOWN_QUERIES)).get(source, [])


@functools.lru_cache(maxsize=None)
def _combined(sources: tuple[str, ...]) -> tuple[Query, tuple[str, ...]]:
    owners: list[str] = []
    for source in sources:
        owners += [source] * compile_query(source).pattern_count
    return Query(LANGUAGE, "\n".join(sources)), tuple(owners)


@functools.lru_cache(maxsize=4)
def _matches_by_query(tree: Tree, sources: tuple[str, ...]) -> dict[str, list[Match]]:
    query, owners = _combined(sources)
    found: dict[str, list[Match]] = {}
    for index, captures in QueryCursor(query).matches(tree.root_node):
        found.setdefault(owners[index], []).append(captures)
    return found


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
           title: str = "") -> Finding:
    fix = Fix(edits, applicability, title) if edits else None
    return Finding(code, message, node.start_byte, node.end_byte, fix=fix)


def replace(node: Node, new: str) -> Edit:
    return Edit(node.start_byte, node.end_byte, new.encode())
