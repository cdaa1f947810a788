"""HP501: texture and surface *references* (`texture<float, 1> tex;`), the
API CUDA 12 removed.  HIP kept them only as a deprecated path; texture
objects (`cudaTextureObject_t`) are the portable form."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
(declaration type: (template_type name: (type_identifier) @kind
  (#any-of? @kind "texture" "surface")) declarator: (_) @name) @declaration
""")


@file_rule("hazard-texture-references", codes=("HP501",))
def texture_references(ctx: Context) -> Iterator[Finding]:
    if b"texture" not in ctx.data and b"surface" not in ctx.data:  # cheap: skip the walk
        return
    for match in matches(ctx, _QUERY):
        kind, name = text(match["kind"][0]), text(match["name"][0])
        yield hazard("HP501", f"{kind} reference `{name}`: a removed CUDA API, deprecated "
                     f"in HIP; use a {kind} object instead", match["declaration"][0])
