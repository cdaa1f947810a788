"""HP417: a cooperative-groups tile or group shuffle of a class-type value
(`tile.shfl_xor(uint4, ...)`, `tile.shfl_down(double2, ...)`, a user's
struct).  CUDA's group shuffles move any trivially copyable type; HIP's
`thread_block_tile` and `coalesced_group` shuffles static_assert "Neither an
integer or float type." (HIP 5.2 and ROCm 6.4 alike), and overloads of the
free `__shfl*` functions cannot help past that assertion.  Reported where
the value's type is known to be one: a name declared in the enclosing
function with a CUDA vector type or a struct, class or union the file
defines, or a `make_<vector>(...)` value."""
from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
(call_expression
  function: (field_expression field: (field_identifier) @method)
  arguments: (argument_list . (_) @value)
  (#any-of? @method "shfl" "shfl_xor" "shfl_down" "shfl_up")) @call
""")
_RECORDS = query("""
[(struct_specifier name: (type_identifier) @record body: (_))
 (class_specifier name: (type_identifier) @record body: (_))
 (union_specifier name: (type_identifier) @record body: (_))]
""")
# CUDA's vector types (vector_types.h): HIP has them too, as classes.
VECTOR = re.compile(r"(u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]"
                    r"(_16a|_32a)?\Z")
_DECLARING = ("parameter_declaration", "declaration")
_QUALIFIERS = frozenset({"const", "volatile", "struct", "class", "union"})


def _declared_type(value: Node, levels: int) -> str | None:
    """The type spelled where the name ``value`` is declared in its function,
    with ``levels`` of pointer or array declarators (0: a plain variable)."""
    name = text(value)
    function = value.parent
    while function is not None and function.type != "function_definition":
        function = function.parent
    if function is None:
        return None
    stack = [function]
    while stack:
        node = stack.pop()
        if node.type in _DECLARING and node.start_byte < value.start_byte:
            kind = node.child_by_field_name("type")
            if kind is not None and any(_declares(d, name) == levels
                                        for d in node.children_by_field_name("declarator")):
                return " ".join(w for w in text(kind).split() if w not in _QUALIFIERS)
        stack.extend(node.named_children)
    return None


def _declares(declarator: Node, name: str) -> int | None:
    """How many pointer or array levels ``declarator`` puts on ``name`` (None:
    it declares another name)."""
    levels = 0
    while declarator.type in ("init_declarator", "reference_declarator", "pointer_declarator",
                              "array_declarator"):
        levels += declarator.type in ("pointer_declarator", "array_declarator")
        inner = declarator.child_by_field_name("declarator") or (
            declarator.named_children[0] if declarator.named_children else None)
        if inner is None:
            return None
        declarator = inner
    return levels if declarator.type == "identifier" and text(declarator) == name else None


def _class_type(value: Node, records: set[str]) -> str | None:
    """The value's class type, where it is known."""
    if value.type == "call_expression":
        function = value.child_by_field_name("function")
        called = text(function) if function is not None else ""
        return called[5:] if called.startswith("make_") and VECTOR.match(called[5:]) else None
    levels = 0
    if value.type == "subscript_expression":  # an element of an array or pointer
        inner = value.child_by_field_name("argument")
        if inner is None:
            return None
        value, levels = inner, 1
    if value.type != "identifier":
        return None
    declared = _declared_type(value, levels)
    if declared is None:
        return None
    bare = declared.split("::")[-1]
    return declared if VECTOR.match(bare) or bare in records else None


@file_rule("hazard-cg-wide-shuffles", codes=("HP417",))
def wide_shuffles(ctx: Context) -> Iterator[Finding]:
    if b"cooperative_groups" not in ctx.data or b".shfl" not in ctx.data:  # cheap
        return
    records = {text(m["record"][0]) for m in matches(ctx, _RECORDS)}
    for match in matches(ctx, _QUERY):
        kind = _class_type(match["value"][0], records)
        if kind is None:
            continue
        method = text(match["method"][0])
        yield hazard("HP417", f"`{method}` of a `{kind}`: HIP's group shuffles take integer "
                     "and floating-point values only (static_assert \"Neither an integer or "
                     "float type.\"); shuffle its members one by one (or its 4-byte words "
                     "through memcpy)", match["call"][0])
