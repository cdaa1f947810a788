"""HP412: a cooperative-groups tile larger than the wavefront.

HIP's tiles live inside one wavefront: `tiled_partition<N>` and
`thread_block_tile<N>` static_assert that N is at most the wavefront size
("Tiled partition with size > wavefront size", HIP 5.2 and ROCm 6.4 alike),
and `tiled_partition(group, n)` asserts at run time.  CUDA allows tiles of
up to 1024 threads (with `block_tile_memory`).  The wavefront is 64 lanes on
CDNA (gfx90a, gfx942) and 32 on RDNA (gfx10xx, gfx11xx, gfx12xx, whose HIP
code is built for 32-lane wavefronts), so the limit is that of the GPUs
built for: `--offload-arch`, or hipport's default targets."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.gpus import wavefront
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
(template_function name: (identifier) @tile
  arguments: (template_argument_list . (number_literal) @size)
  (#any-of? @tile "tiled_partition" "thread_block_tile")) @node
(template_type name: (type_identifier) @tile
  arguments: (template_argument_list . (number_literal) @size)
  (#eq? @tile "thread_block_tile")) @node
(call_expression
  function: [(identifier) @call
             (qualified_identifier name: (identifier) @call)]
  arguments: (argument_list . (_) . (number_literal) @size .)
  (#eq? @call "tiled_partition")) @node
""")
# The assertion each template fails (amd_hip_cooperative_groups.h, 5.2 and 6.4).
_ASSERTS = {
    "tiled_partition": "Tiled partition with size > wavefront size",
    "thread_block_tile": "Tile size is either not a power of 2 or greater than the wavefront size",
}

def _qualified(name: Node) -> bool:
    return name.parent is not None and name.parent.type == "qualified_identifier"


def _size(node: Node) -> int | None:
    try:
        return int(text(node).rstrip("uUlL"), 0)
    except ValueError:
        return None


@file_rule("hazard-tile-size", codes=("HP412",))
def tile_size(ctx: Context) -> Iterator[Finding]:
    if b"tiled_partition" not in ctx.data and b"thread_block_tile" not in ctx.data:
        return
    archs = ctx.settings.offload_arch
    lanes = min(wavefront(a) for a in archs)
    narrow = ", ".join(a for a in archs if wavefront(a) == lanes)
    # An unqualified call is cooperative groups' only where the file names them.
    groups = b"cooperative_groups" in ctx.data
    for match in matches(ctx, _QUERY):
        if "call" in match and not groups and not _qualified(match["call"][0]):
            continue
        size = _size(match["size"][0])
        if size is None or size <= lanes:
            continue
        node = match["node"][0]
        if "call" in match:
            what = (f"`tiled_partition(..., {size})`: a tile of {size} threads is larger than "
                    f"the wavefront ({lanes} lanes on {narrow}); HIP asserts at run time "
                    "(invalid tile size)")
        else:
            tile = text(match["tile"][0])
            what = (f"`{tile}<{size}>`: a tile of {size} threads is larger than the wavefront "
                    f"({lanes} lanes on {narrow}); HIP's static_assert \"{_ASSERTS[tile]}\" "
                    "fails to compile")
        yield hazard("HP412", what + "; split the work into tiles of the wavefront size or "
                     "use the thread block", node)
