"""HP420: inline PTX.  PTX means nothing to an AMD GPU; every `asm`
statement in device code needs a HIP replacement (an intrinsic or plain
C++).  Host code's own assembly (x86 `rdtsc`, `cpuid`) is the host
compiler's business and builds as it did."""
from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import (
    enclosing_function,
    hazard,
    is_device_function,
    matches,
    query,
    text,
)

_QUERY = query("(gnu_asm_expression assembly_code: (_) @code) @asm")
_NVIDIA_ONLY = ("__CUDA_ARCH__", "__NVCC__", "__CUDACC__")
# PTX spellings no host assembler shares: typed instructions (mov.u32,
# ld.global.f32), register declarations, special registers.
_PTX = re.compile(r"\.(?:[usbf](?:8|16|32|64)|pred|reg|global|shared|sync)\b"
                  r"|%%(?:laneid|warpid|smid|nsmid|clock|globaltimer|lanemask|tid|ntid|ctaid)")


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


def _is_ptx(node: Node, code: str) -> bool:
    """In device code, or spelled as PTX wherever it is (a function whose
    qualifiers a macro hides)."""
    return is_device_function(enclosing_function(node)) or _PTX.search(code) is not None


@file_rule("hazard-inline-asm", codes=("HP420",))
def inline_asm(ctx: Context) -> Iterator[Finding]:
    if b"asm" not in ctx.data:  # cheap: skip the tree walk
        return
    for match in matches(ctx, _QUERY):
        node = match["asm"][0]
        code = text(match["code"][0])
        if not _is_ptx(node, code):
            continue
        first = code.strip('"').split("\\n")[0].split(";")[0].strip()
        guard = _guard(node)
        where = f" (under `#if {guard}`: check the other branch is a HIP fallback)" \
            if guard else ""
        yield hazard("HP420", f"inline PTX `{first}` is not portable to AMD GPUs{where}", node)
