"""Portability hazards (HP4xx-HP5xx): code that still compiles after renaming
but behaves differently on AMD GPUs, or that renaming cannot reach.

Each module is one hazard family and registers a file rule; importing them
here is what registers them when ``hipport.rules`` imports this package."""
from __future__ import annotations

from hipport.rules.hazards import (  # noqa: F401
    api_semantics,
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
