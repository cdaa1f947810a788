"""HP420: inline assembly.  PTX means nothing to an AMD GPU; every `asm`
statement needs a HIP replacement (an intrinsic or plain C++)."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("(gnu_asm_expression assembly_code: (_) @code) @asm")
_NVIDIA_ONLY = ("__CUDA_ARCH__", "__NVCC__", "__CUDACC__")


def _guard(node: Node) -> str | None:
    """The enclosing `#if` condition that keeps the statement away from HIP."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("preproc_if", "preproc_ifdef", "preproc_elif"):
            condition = parent.child_by_field_name("condition") or \
                parent.child_by_field_name("name")
            spelled = text(condition)
            if any(macro in spelled for macro in _NVIDIA_ONLY):
                return " ".join(spelled.split())
        parent = parent.parent
    return None


@file_rule("hazard-inline-asm", codes=("HP420",))
def inline_asm(ctx: Context) -> Iterator[Finding]:
    if b"asm" not in ctx.data:  # cheap: skip the tree walk
        return
    for match in matches(ctx, _QUERY):
        node = match["asm"][0]
        first = text(match["code"][0]).strip('"').split("\\n")[0].split(";")[0].strip()
        guard = _guard(node)
        where = f" (under `#if {guard}`: check the other branch is a HIP fallback)" \
            if guard else ""
        yield hazard("HP420", f"inline PTX `{first}` is not portable to AMD GPUs{where}", node)
