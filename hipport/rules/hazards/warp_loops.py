"""HP402: loops over the lanes of a warp bounded by 16 or 32, e.g. the
shuffle reduction `for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(...)`.
On a 64-lane wavefront it combines only half the lanes."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, replace, text

_LOOPS = query("""
(for_statement
  initializer: (declaration declarator: (init_declarator value: (number_literal) @bound))
  body: (_) @body) @loop
(for_statement
  condition: (binary_expression right: (number_literal) @bound)
  body: (_) @body) @loop
""")
# The raw warp intrinsics (before or after renaming).  Member calls on a
# cooperative-groups tile are left alone: the tile, not the hardware, sets
# the width.
_SHUFFLES = """
(call_expression function: (identifier) @name
  (#match? @name "^__(shfl|shfl_up|shfl_down|shfl_xor|ballot|any|all|reduce_[a-z]+)(_sync)?$"))
"""
_REPLACEMENT = {"16": "warpSize / 2", "32": "warpSize"}


def _literal(node: Node) -> str:
    return text(node).rstrip("uUlL")


@file_rule("hazard-warp-loops", codes=("HP402",))
def warp_loops(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    for match in matches(ctx, _LOOPS):
        bound, body = match["bound"][0], match["body"][0]
        literal = _literal(bound)
        if literal not in _REPLACEMENT:
            continue
        if bound.parent is not None and bound.parent.type == "binary_expression":
            operator = bound.parent.child_by_field_name("operator")
            if operator is None or operator.type not in ("<", "<=", "!=", ">", ">="):
                continue
        calls = [text(m["name"][0]) for m in matches(ctx, _SHUFFLES, body)]
        if not calls:
            continue
        new = _REPLACEMENT[literal]
        # `o = 16` needs no parentheses; `i < warpSize / 2` neither: `/`
        # binds tighter than every comparison.
        yield hazard("HP402", f"loop bound {text(bound)} around `{calls[0]}` assumes a "
                     "32-lane warp; an AMD wavefront has 64 lanes", bound,
                     (replace(bound, new),), Applicability.UNSAFE,
                     f"Replace {text(bound)} with {new}")
