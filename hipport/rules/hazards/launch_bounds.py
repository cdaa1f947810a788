"""HP504: `__launch_bounds__(threads, minBlocks)`.  HIP reads the second
argument as a minimum number of *wavefronts per execution unit*, not blocks
per multiprocessor, so the same number asks for something else."""
from __future__ import annotations

from typing import Iterator

from hipport.edits import Applicability, Edit
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

MIN_BLOCKS = "HP504"
_QUERY = query("(launch_bounds) @bounds")


@file_rule("hazard-launch-bounds", codes=("HP504",))
def launch_bounds(ctx: Context) -> Iterator[Finding]:
    if b"__launch_bounds__" not in ctx.data:  # cheap: skip the tree walk
        return
    for match in matches(ctx, _QUERY):
        bounds = match["bounds"][0]
        arguments = [c for c in bounds.named_children if c.type != "comment"]
        if len(arguments) < 2:
            continue
        second = text(arguments[1])
        yield hazard(MIN_BLOCKS, f"`__launch_bounds__` minimum of {second} blocks per "
                     "multiprocessor means minimum waves per execution unit in HIP",
                     bounds, (Edit(arguments[0].end_byte, arguments[-1].end_byte, b""),),
                     Applicability.UNSAFE, "Drop the minimum-blocks argument")
