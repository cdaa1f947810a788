"""Warp-synchronous programming that assumes a 32-thread warp.

* HP406: `cg::tiled_partition<32>` / `thread_block_tile<32>` used as "the
  warp": on AMD a 32-thread tile is half a wavefront.
* HP407: `__syncwarp()`: its mask is 32 bits, and no HIP release before
  ROCm 7 declares it (5.2, 5.7, 6.4); ROCm 7.2 does, with a 64-bit mask.
* HP408: reductions through `volatile` memory with literal offsets and no
  barrier, relying on the lanes of a warp running in lock step.
"""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    enclosing_function,
    hazard,
    matches,
    may_hold_device_code,
    query,
    text,
)
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
            yield hazard("HP407", _syncwarp_message(ctx.settings.rocm_version),
                         match["node"][0])
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
