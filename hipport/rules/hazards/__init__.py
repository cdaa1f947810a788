"""Portability hazards (HP4xx-HP5xx): code that still compiles after renaming
but behaves differently on AMD GPUs, or that renaming cannot reach.

Each module is one hazard family and registers a file rule; importing them
here is what registers them when ``hipport.rules`` imports this package."""
from __future__ import annotations

from hipport.rules.hazards import (  # noqa: F401
    api_semantics,
    lanes,
    clock_rate,
    cooperative_groups,
    device_launch,
    device_properties,
    inline_asm,
    lane_arithmetic,
    lane_masks,
    launch_bounds,
    shared_arrays,
    texture_references,
    warp_loops,
    warp_sync,
)
from hipport.rules import WARM_UPS
from hipport.rules.hazards.nodes import compile_registered, register_queries

# Every whole-tree query of the rules above, known up front so they compile
# into one query once per process (compiling is the expensive part).
register_queries(
    source for module in (api_semantics, clock_rate, cooperative_groups, device_launch,
                          device_properties, inline_asm, lane_arithmetic, lane_masks, lanes,
                          launch_bounds, shared_arrays, texture_references, warp_loops,
                          warp_sync)
    for source in (getattr(module, "_QUERY", None), getattr(module, "_LOOPS", None))
    if source is not None
)
WARM_UPS.append(compile_registered)
