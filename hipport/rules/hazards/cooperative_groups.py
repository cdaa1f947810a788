"""HP507: cooperative-groups features HIP does not have (the headers of ROCm
5.2, 5.7 and 6.4 alike): the collective algorithms (`cg::reduce`, scans),
asynchronous copies and the partitioning helpers beyond `tiled_partition`;
`binary_partition` is in 6.4 only under HIP_ENABLE_WARP_SYNC_BUILTINS.
Messages name the target release (`--rocm-version`)."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.emulation import EMULATION_CODES, emulated
from hipport.rules.hazards.nodes import hazard, matches, query, text
from hipport.table.versions import Release, release_text, releases_lacking

MISSING = frozenset({
    "reduce", "inclusive_scan", "exclusive_scan", "memcpy_async", "wait", "wait_prior",
    "labeled_partition", "binary_partition", "invoke_one", "invoke_one_broadcast",
    "plus", "less", "greater", "bit_and", "bit_or", "bit_xor", "block_tile_memory",
})
# Names a release declares only when the user defines a macro: (first release
# checked that has it, the macro).
GATED: dict[str, tuple[Release, str]] = {
    "binary_partition": ((6, 4), "HIP_ENABLE_WARP_SYNC_BUILTINS"),
}
_NAMES = " ".join(f'"{n}"' for n in sorted(MISSING))
_QUERY = query(f"""
(namespace_alias_definition name: (namespace_identifier) @alias
  (namespace_identifier) @target (#eq? @target "cooperative_groups"))
(qualified_identifier scope: (namespace_identifier) @scope
  name: [(identifier) @name (type_identifier) @name
         (template_function name: (identifier) @name)
         (template_type name: (type_identifier) @name)]
  (#any-of? @name {_NAMES})) @use
""")


@file_rule("hazard-cooperative-groups", codes=("HP507", *EMULATION_CODES))
def cooperative_groups(ctx: Context) -> Iterator[Finding]:
    if b"cooperative_groups" not in ctx.data:  # cheap: skip the tree walk
        return
    scopes = {"cooperative_groups"}
    uses = []
    for match in matches(ctx, _QUERY):
        if "alias" in match:
            scopes.add(text(match["alias"][0]))
        else:
            uses.append(match)
    target = ctx.settings.rocm_version
    for match in uses:
        if text(match["scope"][0]) in scopes:
            name = text(match["name"][0])
            node = match["use"][0]
            polyfill = emulated(f"cooperative_groups::{name}", ctx.settings, node.start_byte,
                                node.end_byte)
            if polyfill is not None:
                yield polyfill
                continue
            yield hazard("HP507", _gap(name, target), node)


def _gap(name: str, target: Release | None) -> str:
    since, macro = GATED.get(name, (None, ""))
    if since is not None and target is not None and target >= since:
        return (f"cooperative groups `{name}` is in HIP's cooperative groups of ROCm "
                f"{release_text(target)}, the target, only with {macro} defined; define it, "
                "or write it with tiles and shuffles")
    where = releases_lacking(target, since)
    if since is not None and target is None:
        where += f"; ROCm {release_text(since)} has it only with {macro} defined"
    return (f"cooperative groups `{name}` is not in HIP's cooperative groups ({where}); "
            "write it with tiles and shuffles")
