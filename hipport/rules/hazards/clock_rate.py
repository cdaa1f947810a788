"""HP505: `clock()` / `clock64()` in device code.  The counter ticks at a
rate that differs between GPUs (and is not the shader clock on AMD), so
cycle counts converted with `clockRate` mislead."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    hazard,
    in_device_code,
    matches,
    may_hold_device_code,
    query,
    text,
)

_QUERY = query("""
(call_expression function: (identifier) @clock
  (#any-of? @clock "clock" "clock64") arguments: (argument_list) @arguments) @call
""")


@file_rule("hazard-clock-rate", codes=("HP505",))
def clock_rate(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    for match in matches(ctx, _QUERY):
        call = match["call"][0]
        if match["arguments"][0].named_child_count == 0 and in_device_code(call):
            yield hazard("HP505", f"`{text(match['clock'][0])}()` counts at a "
                         "device-specific rate; on AMD use wall_clock64() with "
                         "hipDeviceAttributeWallClockRate for time", call)
