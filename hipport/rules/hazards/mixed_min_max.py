"""HP510: `min`/`max` in device code with integer arguments of different
types (`min(unsigned, int)`, `max(size_t, int)`).  CUDA declares an overload
for each mix and compares as C++ would (`umin` for `unsigned` and `int`);
HIP declares only `T min(T, T)`, `int min(int, int)`, and the `float` and
`double` ones, so the mix compiles to `double min(double, double)`: a
floating-point comparison, signed where CUDA's was unsigned, and inexact
above 2^53.  Where the front end sees both declared types (locals and
parameters of the same function, literals) the argument is cast to the type
CUDA compares in, an unsafe fix."""
from __future__ import annotations

import re
from typing import Iterator, NamedTuple

from tree_sitter import Node

from hipport.edits import Applicability, Edit
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    declared_type,
    enclosing_function,
    hazard,
    in_device_code,
    matches,
    may_hold_device_code,
    query,
    text,
)

_QUERY = query("""
(call_expression function: (identifier) @name (#any-of? @name "min" "max")
  arguments: (argument_list . (_) @first . (_) @second .)) @call
""")


class Integer(NamedTuple):
    name: str      # the type CUDA's overload takes: `unsigned long`
    rank: int      # int 1, long 2, long long 3
    unsigned: bool

    @property
    def bits(self) -> int:
        return 32 if self.rank == 1 else 64


_INT = Integer("int", 1, False)
_TYPES = {
    **dict.fromkeys(("int", "signed", "signed int", "int32_t", "short", "short int",
                     "unsigned short", "unsigned short int", "char", "signed char",
                     "unsigned char", "int16_t", "uint16_t", "int8_t", "uint8_t", "bool"), _INT),
    **dict.fromkeys(("unsigned", "unsigned int", "uint32_t", "uint"),
                    Integer("unsigned int", 1, True)),
    **dict.fromkeys(("long", "long int", "signed long", "int64_t", "ptrdiff_t", "ssize_t",
                     "intptr_t"), Integer("long", 2, False)),
    **dict.fromkeys(("unsigned long", "unsigned long int", "uint64_t", "size_t", "uintptr_t"),
                    Integer("unsigned long", 2, True)),
    **dict.fromkeys(("long long", "long long int", "signed long long"),
                    Integer("long long", 3, False)),
    **dict.fromkeys(("unsigned long long", "unsigned long long int"),
                    Integer("unsigned long long", 3, True)),
}
_UINT = _TYPES["unsigned int"]
_BUILTIN_INDICES = frozenset(f"{v}.{c}" for v in ("threadIdx", "blockIdx", "blockDim", "gridDim")
                             for c in "xyz")
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"})
_SIGNED = {1: "int", 2: "long", 3: "long long"}
_UNSIGNED = {1: "unsigned int", 2: "unsigned long", 3: "unsigned long long"}
_LITERAL = re.compile(r"-?(0[xX][0-9a-fA-F']+|\d[\d']*)([uUlL]*)")


def _literal_type(literal: str) -> Integer | None:
    found = _LITERAL.fullmatch(literal)
    if found is None:
        return None
    digits, suffix = found.group(1).replace("'", ""), found.group(2).lower()
    base = 16 if digits[:2] in ("0x", "0X") else 8 if digits[0] == "0" else 10
    try:
        value = int(digits, base)
    except ValueError:  # `09`: not a number C++ accepts either
        return None
    rank = 3 if "ll" in suffix else 2 if "l" in suffix else 1
    if rank == 1 and value > 0x7FFFFFFF:
        return None  # decimal: long; hex: unsigned int; neither worth guessing
    unsigned = "u" in suffix
    return Integer((_UNSIGNED if unsigned else _SIGNED)[rank], rank, unsigned)


def _type_of(node: Node, function: Node | None) -> Integer | None:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "number_literal":
        return _literal_type(text(node))
    if node.type == "cast_expression":
        kind = node.child_by_field_name("type")
        return _TYPES.get(" ".join(text(kind).split())) if kind is not None else None
    if node.type == "field_expression":
        return _UINT if " ".join(text(node).split()) in _BUILTIN_INDICES else None
    if node.type == "sizeof_expression":
        return _TYPES["size_t"]
    if node.type == "unary_expression" and text(node.child_by_field_name("operator")) in "-+~":
        argument = node.child_by_field_name("argument")
        return _type_of(argument, function) if argument is not None else None
    if node.type == "binary_expression":
        return _binary_type(node, function)
    if node.type != "identifier":
        return None
    declared = declared_type(function, text(node))
    if declared is None or declared.indirection:
        return None
    return _TYPES.get(declared.type.removeprefix("const ").strip())


def _binary_type(node: Node, function: Node | None) -> Integer | None:
    """An arithmetic expression's type: `i + blockDim.x` is `unsigned int`."""
    operator = text(node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator not in _ARITHMETIC or left is None or right is None:
        return None
    a, b = _type_of(left, function), _type_of(right, function)
    if a is None or b is None:
        return None
    return a if operator in ("<<", ">>") else _common(a, b)


def _common(a: Integer, b: Integer) -> Integer:
    """The type C++'s usual arithmetic conversions, and so CUDA's overloads, compare in."""
    if a.unsigned == b.unsigned:
        return a if a.rank >= b.rank else b
    unsigned, signed = (a, b) if a.unsigned else (b, a)
    if unsigned.rank >= signed.rank:
        return unsigned
    if signed.bits > unsigned.bits:
        return signed
    return Integer(_UNSIGNED[signed.rank], signed.rank, True)


def _user_defined(ctx: Context) -> bool:
    """The file defines its own min/max (a macro or a function): not HIP's."""
    return re.search(rb"#\s*define\s+(?:min|max)\b|\b(?:min|max)\s*\([^()]*\)\s*\{",
                     ctx.data) is not None


@file_rule("hazard-mixed-min-max", codes=("HP510",))
def mixed_min_max(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx) or (b"min(" not in ctx.data and b"max(" not in ctx.data):
        return
    if _user_defined(ctx):
        return
    for match in matches(ctx, _QUERY):
        call = match["call"][0]
        if not in_device_code(call):
            continue
        function = enclosing_function(call)
        first, second = match["first"][0], match["second"][0]
        a, b = _type_of(first, function), _type_of(second, function)
        if a is None or b is None or a.name == b.name:
            continue
        common = _common(a, b)
        other = second if common.name == a.name else first
        operand = text(other)
        simple = other.type in ("identifier", "number_literal", "parenthesized_expression")
        cast = f"({common.name})" + (operand if simple else f"({operand})")
        name = text(match["name"][0])
        yield hazard("HP510", f"`{name}({text(first)}, {text(second)})` mixes `{a.name}` and "
                     f"`{b.name}`: CUDA compares as `{common.name}`, HIP converts both to "
                     f"`double`; cast `{operand}` to `{common.name}`", call,
                     (Edit(other.start_byte, other.end_byte, cast.encode()),),
                     Applicability.UNSAFE, f"Cast to `{common.name}`")
