"""HP403: `__shared__` arrays with a dimension of 32 indexed by a lane
(`__shared__ float s[8][32]; s[warp][lane] = v;`).  With 64-lane wavefronts
the lane index reaches 63 and the array overflows."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.lanes import variables
from hipport.rules.hazards.nodes import hazard, matches, may_hold_device_code, query, text

_QUERY = query("""
(declaration (type_qualifier "__shared__") declarator: (array_declarator) @array)
(subscript_expression argument: (identifier) @used indices: (subscript_argument_list (_) @index))
(subscript_expression argument: (subscript_expression argument: (identifier) @used)
  indices: (subscript_argument_list (_) @index))
""")


@file_rule("hazard-shared-arrays", codes=("HP403",))
def shared_arrays(ctx: Context) -> Iterator[Finding]:
    if not may_hold_device_code(ctx):
        return
    arrays: dict[str, list[int]] = {}  # name -> byte offsets of its 32 dimension(s)
    declarations: dict[str, Node] = {}
    lane_indexed: set[str] = set()
    found = variables(ctx)
    for match in matches(ctx, _QUERY):
        if "array" in match:
            node = match["array"][0]
            sizes: list[int] = []
            while node.type == "array_declarator":
                size = node.child_by_field_name("size")
                if size is not None and text(size).rstrip("uU") == "32":
                    sizes.append(size.start_byte)
                inner = node.child_by_field_name("declarator")
                if inner is None:
                    break
                node = inner
            if sizes and node.type == "identifier":
                arrays[text(node)] = sizes
                declarations[text(node)] = match["array"][0]
        elif found.is_lane_index(match["index"][0]):
            lane_indexed.add(text(match["used"][0]))
    for name in sorted(set(arrays) & lane_indexed, key=lambda n: declarations[n].start_byte):
        yield hazard("HP403", f"`__shared__` array `{name}` has a dimension of 32 and is "
                     "indexed by a lane; a 64-lane wavefront needs 64 entries", declarations[name])
