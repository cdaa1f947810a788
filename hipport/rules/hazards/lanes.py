"""Which variables hold a thread index, a lane index or a vote mask.

A small, file-wide data flow over declarations and plain assignments, in
source order: a variable initialised from `threadIdx` (or from another thread
variable) is a thread index; one initialised by lane arithmetic (`% 32`,
`& 31`, `% warpSize`) or named like a lane is a lane index; one initialised
from a vote (`__ballot_sync`, `__activemask`) holds a lane mask.  Scopes are
ignored: a name that is a thread index in one function is taken to be one in
every function of the file, which errs on the side of reporting."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from hipport.rules import Context
from hipport.rules.hazards.nodes import context_matches, identifiers, query, text

_QUERY = query("""
(init_declarator declarator: (identifier) @name value: (_) @value)
(assignment_expression left: (identifier) @name operator: "=" right: (_) @value)
""")
THREAD_SOURCES = frozenset({"threadIdx", "hipThreadIdx_x", "__lane_id", "__lanemask_lt"})
VOTES = frozenset({"__ballot_sync", "__ballot", "__activemask", "__ballot64"})
_THREAD_NAME = re.compile(r"(?i)^(l?tid[xyz]?|thread_?id[xyz]?|thread_?idx[xyz]?|thread_?rank)$")
_LANE_NAME = re.compile(r"(?i)lane")
_LANE_MODULI = frozenset({"32", "32u", "warpSize"})
_LANE_MASKS = frozenset({"31", "31u", "0x1f", "0x1F", "(warpSize - 1)", "(warpSize-1)"})


@dataclass
class Variables:
    thread: set[str] = field(default_factory=set)
    lane: set[str] = field(default_factory=set)
    vote: set[str] = field(default_factory=set)

    def is_thread_index(self, node: Node) -> bool:
        names = identifiers(node)
        return bool(names & (THREAD_SOURCES | self.thread | self.lane)) or any(
            _THREAD_NAME.match(n) or _LANE_NAME.search(n) for n in names)

    def is_lane_index(self, node: Node) -> bool:
        names = identifiers(node)
        return bool(names & self.lane) or any(_LANE_NAME.search(n) for n in names) \
            or is_lane_arithmetic(node)

    def is_vote(self, node: Node) -> bool:
        """A vote, a mask variable, or a bitwise combination with one."""
        # A loop, not recursion: `m & m & ... & m` can nest thousands deep.
        stack = [node]
        while stack:
            node = stack.pop()
            while node.type == "parenthesized_expression" and node.named_children:
                node = node.named_children[0]
            if node.type == "call_expression":
                if text(node.child_by_field_name("function")) in VOTES:
                    return True
            elif node.type == "identifier":
                if text(node) in self.vote:
                    return True
            elif node.type == "unary_expression" \
                    and text(node.child_by_field_name("operator")) == "~":
                stack.extend(c for c in (node.child_by_field_name("argument"),) if c is not None)
            elif node.type == "binary_expression" and \
                    text(node.child_by_field_name("operator")) in ("&", "|", "^"):
                stack.extend(c for c in (node.child_by_field_name("right"),
                                         node.child_by_field_name("left")) if c is not None)
        return False


def is_lane_arithmetic(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "binary_expression":
            op = current.child_by_field_name("operator")
            right = text(current.child_by_field_name("right"))
            if (op is not None and op.type == "%" and right in _LANE_MODULI) or \
                    (op is not None and op.type == "&" and right in _LANE_MASKS):
                return True
        elif current.type == "call_expression" and \
                text(current.child_by_field_name("function")) == "__lane_id":
            return True
        stack.extend(current.named_children)
    return False


def variables(ctx: Context) -> Variables:
    # Several rules ask about the same file one after the other: the answer
    # is kept in the rule run's context (a module-level cache kept the tree).
    known = ctx.memo.get(_MEMO)
    if not isinstance(known, Variables):
        known = ctx.memo[_MEMO] = _variables(ctx)
    return known


_MEMO = "lane-variables"


def _variables(ctx: Context) -> Variables:
    found = Variables()
    for match in context_matches(ctx, _QUERY):
        name, value = text(match["name"][0]), match["value"][0]
        names = identifiers(value)
        if is_lane_arithmetic(value) or _LANE_NAME.search(name) or names & found.lane:
            found.lane.add(name)
        elif names & (THREAD_SOURCES | found.thread) or _THREAD_NAME.match(name):
            found.thread.add(name)
        if found.is_vote(value):
            found.vote.add(name)
    return found

