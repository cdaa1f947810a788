"""`h2 = {a, b};` for a `__half2`: HIP's `__half2` has several assignment
operators a braced list can initialise, so the assignment is ambiguous
(HIP 5.2 and ROCm 6.4 alike); naming the type, `h2 = __half2{a, b};`,
builds the same value and compiles on both."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    declared_type,
    enclosing_function,
    matches,
    query,
    text,
)

PAIR_TYPES = frozenset({"__half2", "half2", "__nv_bfloat162", "nv_bfloat162",
                        "__hip_bfloat162"})

_QUERY = query("""
(assignment_expression left: [(identifier) (subscript_expression)] @left
  operator: "=" right: (initializer_list) @list) @assign
""")


def _assigned_type(left: Node) -> str | None:
    """The pair type of an assignment's left side, from its declaration."""
    indirection = 0
    while left.type == "subscript_expression":
        argument = left.child_by_field_name("argument")
        if argument is None:
            return None
        left, indirection = argument, indirection + 1
    if left.type != "identifier":
        return None
    declared = declared_type(enclosing_function(left), text(left))
    if declared is None or declared.indirection != indirection:
        return None
    kind = declared.type.removeprefix("const ").strip()
    return kind if kind in PAIR_TYPES else None


@file_rule("half2-brace-assignment", codes=("HP307",))
def half2_brace_assignment(ctx: Context) -> Iterator[Finding]:
    if b"half2" not in ctx.data and b"bfloat162" not in ctx.data:
        return
    for match in matches(ctx, _QUERY):
        kind = _assigned_type(match["left"][0])
        if kind is None:
            continue
        entry = ctx.table.lookup(kind)
        spelled = entry.hip if entry is not None and entry.hip else kind
        brace = match["list"][0]
        yield Finding("HP307", f"`{text(match['left'][0])} = {{...}}` assigns a braced list to "
                      f"a `{kind}`, which is ambiguous in HIP: the type was named",
                      match["assign"][0].start_byte, brace.end_byte,
                      fix=Fix((Edit(brace.start_byte, brace.start_byte, spelled.encode()),),
                              Applicability.SAFE, f"Write `{spelled}{{...}}`"))
