"""Warp-synchronous programming that assumes a 32-thread warp.

* HP406: `cg::tiled_partition<32>` / `thread_block_tile<32>` used as "the
  warp": on AMD a 32-thread tile is half a wavefront.
* HP407: `__syncwarp()`: its mask is 32 bits, and no HIP release before
  ROCm 7 declares it (5.2, 5.7, 6.4); ROCm 7.2 does, with a 64-bit mask, so
  there `__syncwarp(0xffffffff)` does not compile unless the polyfill header
  adds the overloads for CUDA's 32-bit masks.
* HP408: reductions through `volatile` memory with literal offsets and no
  barrier, relying on the lanes of a warp running in lock step.
"""
from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.arguments import macro_value
from hipport.rules.emulation import emulation
from hipport.rules.hazards.nodes import (
    enclosing_function,
    hazard,
    matches,
    may_hold_device_code,
    query,
    text,
)
from hipport.settings import Settings
from hipport.table.versions import Release, release_text, releases_lacking

_QUERY = query("""
(template_function name: (identifier) @tile
  arguments: (template_argument_list . (number_literal) @size .)
  (#any-of? @tile "tiled_partition" "thread_block_tile") (#eq? @size "32")) @node
(template_type name: (type_identifier) @tile
  arguments: (template_argument_list . (number_literal) @size .)
  (#eq? @tile "thread_block_tile") (#eq? @size "32")) @node
(call_expression function: (identifier) @syncwarp (#eq? @syncwarp "__syncwarp")) @node
(declaration (type_qualifier "volatile") declarator: (_) @volatile)
(parameter_declaration (type_qualifier "volatile") declarator: (_) @volatile)
(assignment_expression left: (subscript_expression argument: (identifier) @target)
  right: (_) @source) @update
""")
_OFFSETS = frozenset({"1", "2", "4", "8", "16", "32"})
# The first verified release whose hip_runtime.h declares __syncwarp (the
# warp-sync builtins are on by default from ROCm 7: amd_warp_sync_functions.h).
SYNCWARP_SINCE: Release = (7, 2)


def _syncwarp_message(target: Release | None) -> str:
    if target is not None and target >= SYNCWARP_SINCE:
        return ("`__syncwarp` assumes independent 32-lane warps; ROCm "
                f"{release_text(target)}, the target, declares it for the whole wavefront, "
                "with a 64-bit mask (none unless HIP_DISABLE_WARP_SYNC_BUILTINS is defined)")
    return ("`__syncwarp` assumes independent 32-lane warps; there is no __syncwarp in "
            f"{releases_lacking(target, SYNCWARP_SINCE)}")


_INTEGER = re.compile(r"(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9']+)([uUlLzZ]*)")


def _literal_is_32_bits(literal: str) -> bool:
    """An integer literal whose type is 4 bytes wide (int or unsigned: no `l`
    suffix and a value that fits 32 bits)."""
    found = _INTEGER.fullmatch(literal.strip().lstrip("-+"))
    if found is None or "l" in found.group(2).lower():
        return False
    digits = found.group(1).replace("'", "")
    base = 16 if digits[:2] in ("0x", "0X") else 2 if digits[:2] in ("0b", "0B") else \
        8 if len(digits) > 1 and digits.startswith("0") else 10
    try:
        return int(digits[2:] if base in (16, 2) else digits, base) <= 0xFFFFFFFF
    except ValueError:
        return False


def _mask_is_32_bits(data: bytes, node: Node) -> bool:
    """``node`` is a mask of type int or unsigned as written: `0xffffffff`,
    `~0u`, `-1`, `(FULL_MASK)` with `#define FULL_MASK 0xffffffff` in this
    file.  Anything else (a variable, a call) may be 64 bits: not said."""
    if node.type == "number_literal":
        return _literal_is_32_bits(text(node))
    if node.type in ("parenthesized_expression", "unary_expression") and node.named_children:
        return _mask_is_32_bits(data, node.named_children[-1])
    if node.type == "identifier":
        # A macro's value such as `0xffffffff`, `(0xffffffffu)` or `~0u`.
        value = macro_value(data, text(node).encode())
        return value is not None and _literal_is_32_bits(
            value.decode("utf-8", "replace").strip("() \t").lstrip("~-").strip())
    return False


def _narrow_syncwarp_mask(data: bytes, call: Node, settings: Settings) -> str | None:
    """The mask of `__syncwarp(mask)` as written when it cannot compile: a
    32-bit mask on a target whose own `__syncwarp(mask)` static_asserts a
    64-bit one (amd_warp_sync_functions.h of 7.2), with no fallback from the
    polyfill header adding CUDA's 32-bit overloads (`--polyfills none`)."""
    target = settings.rocm_version
    if target is None or target < SYNCWARP_SINCE or emulation("__syncwarp", settings):
        return None
    arguments = call.child_by_field_name("arguments")
    masks = arguments.named_children if arguments is not None else []
    if len(masks) != 1 or not _mask_is_32_bits(data, masks[0]):
        return None
    return " ".join(text(masks[0]).split())


def _narrow_mask_message(mask: str, target: Release) -> str:
    return (f"`__syncwarp({mask})` does not compile for ROCm {release_text(target)}, the "
            "target: its `__syncwarp(mask)` static_asserts a 64-bit mask, and without the "
            "polyfill header (`--polyfills none`) nothing takes CUDA's 32-bit one; widen the "
            "mask to 64 bits: `0xffffffffffffffffull` (the whole wavefront) or `__ballot(1)` "
            "(the active lanes, what `__activemask()` becomes)")


def _declared_name(node: Node) -> str:
    while node.type not in ("identifier", "field_identifier"):
        inner = node.child_by_field_name("declarator")
        if inner is None:
            return ""
        node = inner
    return text(node)


def _reads_neighbour(source: Node, target: str) -> bool:
    """`target[i + 16]` somewhere in ``source``: a read of another lane's slot."""
    stack = [source]
    while stack:
        node = stack.pop()
        if node.type == "subscript_expression" and \
                text(node.child_by_field_name("argument")) == target:
            indices = node.child_by_field_name("indices")
            for index in indices.named_children if indices is not None else ():
                if index.type == "binary_expression" and \
                        text(index.child_by_field_name("right")) in _OFFSETS:
                    return True
        stack.extend(node.named_children)
    return False


@file_rule("hazard-warp-sync", codes=("HP406", "HP407", "HP408"))
def warp_sync(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    volatile: set[str] = set()
    updates: list[tuple[Node, str, Node]] = []
    for match in matches(ctx, _QUERY):
        if "tile" in match:
            yield hazard("HP406", f"`{text(match['node'][0])}` is a whole warp on NVIDIA "
                         "but half a wavefront on AMD", match["node"][0])
        elif "syncwarp" in match:
            call = match["node"][0]
            narrow = _narrow_syncwarp_mask(ctx.data, call, ctx.settings)
            release = ctx.settings.rocm_version
            message = _narrow_mask_message(narrow, release) \
                if narrow is not None and release is not None else _syncwarp_message(release)
            yield hazard("HP407", message, call)
        elif "volatile" in match:
            volatile.add(_declared_name(match["volatile"][0]))
        else:
            updates.append((match["update"][0], text(match["target"][0]), match["source"][0]))
    reported: set[int] = set()
    for update, target, source in updates:
        function = enclosing_function(update)
        key = function.id if function is not None else 0
        if target in volatile and key not in reported and _reads_neighbour(source, target):
            reported.add(key)
            yield hazard("HP408", f"warp-synchronous reduction through `volatile {target}` "
                         "relies on implicit lock step, without barriers", update)
