"""HP409: a constant named for the warp size and defined as 32
(`#define WARP_SIZE 32`, `constexpr int kWarpSize = 32;`, an enumerator).
Every use of it -- lane numbers, warps per block, shared-memory rows, loop
bounds -- then assumes 32-lane warps without a literal 32 in sight, so the
definition is reported once, where a person can change it."""
from __future__ import annotations

import re
from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
(preproc_def name: (identifier) @warp_constant value: (preproc_arg) @warp_value) @warp_definition
(init_declarator declarator: (identifier) @warp_constant
  value: (number_literal) @warp_value) @warp_definition
(enumerator name: (identifier) @warp_constant value: (number_literal) @warp_value) @warp_definition
""")
_NAME = re.compile(r"(?i)^(k_?|cuda_?)?(warp_?(size|sz|width|threads|lanes)|"
                   r"(threads|lanes)_?per_?warp|num_?lanes)_?$")
_THIRTY_TWO = re.compile(r"\(?\s*32[uUlL]*\s*\)?")
_COMMENT = re.compile(r"//.*$|/\*.*?\*/", re.DOTALL)
# Cheap test before any tree walk: most files never name a warp size.  (A
# lower-cased copy and two scans: 9x faster than a case-blind pattern, and
# the same ASCII-only case folding as one over bytes.)
_MENTIONS = (b"warp", b"lanes")


@file_rule("hazard-warp-size-constants", codes=("HP409",))
def warp_size_constants(ctx: Context) -> Iterator[Finding]:
    lowered = ctx.data.lower()
    if not any(word in lowered for word in _MENTIONS):
        return
    for match in matches(ctx, _QUERY):
        if "warp_constant" not in match:
            continue
        name = text(match["warp_constant"][0])
        value = _COMMENT.sub("", text(match["warp_value"][0])).strip()
        if _NAME.match(name) is None or _THIRTY_TWO.fullmatch(value) is None:
            continue
        yield hazard("HP409", f"`{name}` defines the warp size as {value}; every use of it "
                     "assumes 32-lane warps, and AMD wavefronts have 64 lanes",
                     match["warp_definition"][0])
