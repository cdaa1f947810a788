"""HP401: lane and warp numbers computed with a literal 32 (`threadIdx.x % 32`,
`& 31`, `/ 32`, `>> 5`, `lane == 31`), and warps per block counted with one
(`blockDim.x / 32`).  AMD data-centre GPUs run 64-wide wavefronts, so such
arithmetic splits one wavefront into two "warps".  In a constant expression
(`__shared__ float s[kLanes / 32]`) the `warpSize` fix would not compile on
ROCm 7, whose warpSize is no constant: HP322 there, without a fix."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.constant_width import ROCM7_WAY, constant_context
from hipport.rules.hazards.lanes import Variables, variables
from hipport.rules.hazards.nodes import (
    hazard,
    identifiers,
    matches,
    may_hold_device_code,
    query,
    replace,
    text,
)

_QUERY = query("""
(binary_expression
  left: (_) @left
  operator: ["%" "/" "&" ">>" "==" "!="] @op
  right: (number_literal) @number
  (#match? @number "^(32|31|5|0[xX]1[fF]|0[xX]20)[uUlL]*$")) @expr
""")
_VALUE = {"32": 32, "31": 31, "5": 5, "0x1f": 31, "0x20": 32}
_BLOCK_SIZES = frozenset({"blockDim", "hipBlockDim_x", "hipBlockDim_y", "hipBlockDim_z"})


def _is_block_size(node: Node) -> bool:
    """`blockDim.x` (or an expression of it): the threads of a block."""
    return bool(identifiers(node) & _BLOCK_SIZES)


def _is_plain_block_size(node: Node) -> bool:
    return node.type == "field_expression" and \
        text(node.child_by_field_name("argument")) == "blockDim"


def _value(literal: str) -> int | None:
    return _VALUE.get(literal.rstrip("uUlL").lower())


def _classify(op: str, value: int, left: Node, found: Variables) -> str | None:
    """The replacement text for the literal, or "" for the shift form
    (None: not a warp computation)."""
    if op in ("%", "/") and value == 32 and found.is_thread_index(left):
        return "warpSize"
    if op == "&" and value == 31 and found.is_thread_index(left):
        return "(warpSize - 1)"
    if op == ">>" and value == 5 and found.is_thread_index(left):
        return ""
    if op in ("==", "!=") and value == 31 and found.is_lane_index(left):
        return "(warpSize - 1)"
    # Warps per block, or a block size checked against the warp size.
    if op in ("%", "/") and value == 32 and _is_block_size(left):
        return "warpSize"
    if op == ">>" and value == 5 and _is_block_size(left):
        return ""
    return None


@file_rule("hazard-lane-arithmetic", codes=("HP401", "HP322"))
def lane_arithmetic(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    found = variables(ctx)
    for match in matches(ctx, _QUERY):
        expr, left, number = match["expr"][0], match["left"][0], match["number"][0]
        op = match["op"][0].type
        value = _value(text(number))
        if value is None:
            continue
        replacement = _classify(op, value, left, found)
        if replacement is None:
            continue
        spelled = f"{text(left)} {op} {text(number)}"
        where = constant_context(expr)
        if where is not None:
            yield hazard("HP322", f"`{spelled}` in {where} assumes 32-lane warps; warpSize "
                         f"cannot replace the 32 there (not a constant expression on ROCm 7): "
                         f"{ROCM7_WAY}", expr)
            continue
        if _is_block_size(left) and not found.is_thread_index(left) \
                and not _is_plain_block_size(left):
            # `(blockDim.x + 31) / 32`: the 31 rounds up to a warp too; a
            # person rewrites the whole expression.
            yield hazard("HP401", f"`{spelled}` assumes 32-lane warps; AMD wavefronts have 64 "
                         "lanes (use warpSize)", expr)
            continue
        if replacement:
            edits: tuple[Edit, ...] = (replace(number, replacement),)
        else:  # `x >> 5` -> `((x) / warpSize)`: parenthesised, precedence is kept
            edits = (Edit(expr.start_byte, expr.start_byte, b"(("),
                     Edit(left.end_byte, expr.end_byte, b") / warpSize)"))
        yield hazard("HP401", f"`{spelled}` assumes 32-lane warps; AMD wavefronts have 64 "
                     "lanes (use warpSize)", expr, edits, Applicability.UNSAFE,
                     "Use warpSize instead of a literal warp size")
