"""HP410: a warp shuffle with an explicit width of 32
(`__shfl_xor_sync(mask, v, 16, 32)`, `__shfl_down(v, d, 32)`).  On a 64-lane
wavefront the shuffle then stays inside each half: lanes 32-63 never
exchange values with lanes 0-31, whatever the rest of the code assumes."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, text

_QUERY = query("""
(call_expression function: (identifier) @width_shuffle arguments: (argument_list) @width_args
  (#match? @width_shuffle "^__shfl(_up|_down|_xor)?(_sync)?$")) @width_call
""")


def _width_index(name: str) -> int:
    """Where the width goes: after the mask, value and lane/offset (sync
    forms), or after the value and lane/offset."""
    return 3 if name.endswith("_sync") else 2


@file_rule("hazard-shuffle-width", codes=("HP410",))
def shuffle_width(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    for match in matches(ctx, _QUERY):
        if "width_shuffle" not in match:
            continue
        name = text(match["width_shuffle"][0])
        args = [a for a in match["width_args"][0].named_children if a.type != "comment"]
        index = _width_index(name)
        if len(args) <= index or text(args[index]).rstrip("uUlL") != "32":
            continue
        yield hazard("HP410", f"`{name}` with an explicit width of 32 shuffles within each "
                     "32-lane half of a 64-lane wavefront", match["width_call"][0])
