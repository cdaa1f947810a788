"""HP415: a hipCUB block load or store that transposes through warps, for a
block whose size is not a multiple of the wavefront.

`cub::BlockLoad<T, 96, 4, BLOCK_LOAD_WARP_TRANSPOSE>` needs the block to be
whole warps: 96 threads are three 32-lane warps on NVIDIA GPUs, but one and
a half 64-lane wavefronts on CDNA, and rocPRIM's block_load/block_store
static_assert "BlockSize must be a multiple of hardware warpsize" (ROCm 6.4;
the _TIMESLICED forms map to the same method).  hipCUB's other block
primitives (BlockReduce, BlockScan, BlockRadixSort, BlockExchange) take any
block size: rocPRIM reduces and scans a partial last wavefront with the
number of its valid lanes."""
from __future__ import annotations

import re
from typing import Iterator

from hipport.findings import Finding
from hipport.gpus import wavefront
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
(qualified_identifier
  scope: (namespace_identifier) @namespace
  name: (template_type
    name: (type_identifier) @primitive
    arguments: (template_argument_list . (_) . (number_literal) @size))
  (#any-of? @namespace "cub" "hipcub")
  (#any-of? @primitive "BlockLoad" "BlockStore")) @node
""")
_WARP_TRANSPOSE = re.compile(r"\bBLOCK_(LOAD|STORE)_WARP_TRANSPOSE\w*")


@file_rule("hazard-cub-block-size", codes=("HP415",))
def cub_block_size(ctx: Context) -> Iterator[Finding]:
    if b"_WARP_TRANSPOSE" not in ctx.data:  # cheap: skip the tree walk
        return
    archs = ctx.settings.offload_arch
    lanes = max(wavefront(a) for a in archs)
    wide = ", ".join(a for a in archs if wavefront(a) == lanes)
    for match in matches(ctx, _QUERY):
        node = match["node"][0]
        found = _WARP_TRANSPOSE.search(text(node))
        try:
            size = int(text(match["size"][0]).rstrip("uUlL"), 0)
        except ValueError:
            continue
        if found is None or size % lanes == 0:
            continue
        algorithm, plain = found.group(), f"BLOCK_{found.group(1)}_TRANSPOSE"
        primitive = text(match["primitive"][0])
        yield hazard("HP415", f"`{primitive}` with `{algorithm}` for a block of {size} threads, "
                     f"not a whole number of {lanes}-lane wavefronts ({wide}): rocPRIM's "
                     "static_assert \"BlockSize must be a multiple of hardware warpsize\" fails "
                     f"to compile; use a block of {size + lanes - size % lanes} threads, or "
                     f"`{plain}` (the same result through shared "
                     "memory)", node)
