"""Lane masks that are 32 bits wide.

* HP404: a full 32-bit mask compared with a vote (`__ballot_sync(m, p) ==
  0xffffffff`) or a lane bit built in 32 bits (`1u << lane`): with 64 lanes
  the upper half is lost or the shift is undefined.
* HP405: a vote stored in a 32-bit integer, or counted with the 32-bit bit
  functions (`__popc`, `__ffs`, ...): HIP's `__ballot` returns 64 bits.
"""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.lanes import Variables, variables
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, replace, text

_QUERY = query("""
(binary_expression left: (_) @left operator: ["==" "!=" "&" "^" "|"] @op
  right: (_) @mask) @compare
(binary_expression left: (number_literal) @one operator: "<<" right: (_) @shift
  (#match? @one "^1[uU]?$")) @bit
(declaration type: (_) @type declarator: (init_declarator value: (_) @value)) @declaration
(call_expression function: (identifier) @bitfn arguments: (argument_list . (_) @argument)
  (#any-of? @bitfn "__popc" "__ffs" "__clz" "__brev" "__fns")) @bitcall
""")
_FULL_32 = frozenset({"0xffffffff", "~0u", "~0U", "0xffffffffu", "0xffffffffU", "4294967295u",
                      "(~0u)", "-1u", "0xFFFFFFFF", "0xFFFFFFFFu", "0xFFFFFFFFU", "0xffffffffUL"})
_NARROW_TYPES = frozenset({"unsigned", "unsigned int", "int", "uint32_t", "unsigned long",
                           "long", "uint", "std::uint32_t", "int32_t"})
_WIDE_BIT_FUNCTIONS = {"__popc": "__popcll", "__ffs": "__ffsll", "__clz": "__clzll",
                       "__brev": "__brevll"}


def _full_mask(node: Node) -> bool:
    return text(node) in _FULL_32 or text(node).lower() in _FULL_32


def _compare(match: dict[str, list[Node]], found: Variables) -> Finding | None:
    left, mask = match["left"][0], match["mask"][0]
    if _full_mask(left):
        left, mask = mask, left
    if not _full_mask(mask) or not found.is_vote(left):
        return None
    return hazard("HP404", f"`{text(match['compare'][0])}` treats a vote as a 32-bit mask; "
                  "a 64-lane wavefront's ballot has 64 bits", match["compare"][0])


def _lane_bit(match: dict[str, list[Node]], found: Variables) -> Finding | None:
    one, shift = match["one"][0], match["shift"][0]
    if not found.is_lane_index(shift):
        return None
    return hazard("HP404", f"`{text(match['bit'][0])}` builds a lane bit in 32 bits; lanes "
                  "32-63 of a wavefront shift past the end", match["bit"][0],
                  (replace(one, "1ull"),), Applicability.UNSAFE, "Shift a 64-bit one")


def _narrow_store(match: dict[str, list[Node]], found: Variables) -> Finding | None:
    type_node, value = match["type"][0], match["value"][0]
    if " ".join(text(type_node).split()) not in _NARROW_TYPES or not found.is_vote(value):
        return None
    declaration = match["declaration"][0]
    return hazard("HP405", f"vote stored in a 32-bit `{text(type_node)}`; HIP's ballot "
                  "returns 64 bits (one per wavefront lane)", declaration,
                  (replace(type_node, "unsigned long long"),), Applicability.UNSAFE,
                  "Store the vote in unsigned long long")


def _narrow_count(match: dict[str, list[Node]], found: Variables) -> Finding | None:
    function, argument = match["bitfn"][0], match["argument"][0]
    if not found.is_vote(argument):
        return None
    name = text(function)
    wide = _WIDE_BIT_FUNCTIONS.get(name)
    edits = (replace(function, wide),) if wide else ()
    return hazard("HP405", f"`{name}` counts 32 bits of a vote; HIP's ballot has 64",
                  match["bitcall"][0], edits, Applicability.UNSAFE,
                  f"Use {wide}" if wide else "")


@file_rule("hazard-lane-masks", codes=("HP404", "HP405"))
def lane_masks(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    found = variables(ctx)
    for match in matches(ctx, _QUERY):
        if "compare" in match:
            finding = _compare(match, found)
        elif "bit" in match:
            finding = _lane_bit(match, found)
        elif "declaration" in match:
            finding = _narrow_store(match, found)
        else:
            finding = _narrow_count(match, found)
        if finding is not None:
            yield finding
