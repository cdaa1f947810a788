"""`__grid_constant__` (CUDA 11.7): a qualifier of const kernel parameters
that HIP's compilers do not know ("unknown type name", HIP 5.2 and ROCm 6.4
alike).  The grammar reads it as a keyword, so no rename sees it: this rule
reports each use as the polyfill header's (which defines it empty), or, with
--polyfills none, as a CUDA name HIP lacks."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.emulation import EMULATION_CODES, emulated
from hipport.rules.hazards.nodes import matches, query

NAME = "__grid_constant__"
_QUERY = query('(type_qualifier "__grid_constant__") @use')


@file_rule("grid-constant", codes=("HP901", *EMULATION_CODES))
def grid_constant(ctx: Context) -> Iterator[Finding]:
    if NAME.encode() not in ctx.data:  # cheap: skip the tree walk
        return
    for match in matches(ctx, _QUERY):
        node = match["use"][0]
        polyfill = emulated(NAME, ctx.settings, node.start_byte, node.end_byte)
        yield polyfill or Finding("HP901", f"`{NAME}` has no HIP equivalent: HIP's compilers "
                                  "reject it; remove it (kernel arguments are read-only on "
                                  "AMD GPUs already)", node.start_byte, node.end_byte,
                                  cuda_name=NAME)
