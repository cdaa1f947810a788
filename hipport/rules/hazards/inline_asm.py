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
# A macro's body is not parsed: `#define LANE_ID(x) asm("mov.u32 ...")`
# stops the build where it is expanded, with no asm node anywhere.
_MACRO_QUERY = query("(preproc_function_def value: (preproc_arg) @body)\n"
                     "(preproc_def value: (preproc_arg) @body)")
_ASM_WORD = re.compile(r"\b(?:asm|__asm__|__asm)\b")
_NVIDIA_ONLY = ("__CUDA_ARCH__", "__NVCC__", "__CUDACC__")
# PTX spellings no host assembler shares: typed instructions (mov.u32,
# ld.global.f32), register declarations, special registers.
_PTX = re.compile(r"\.(?:[usbf](?:8|16|32|64)|pred|reg|global|shared|sync)\b"
                  r"|%%(?:laneid|warpid|smid|nsmid|clock|globaltimer|lanemask|tid|ntid|ctaid)"
                  r"|\b(?:mov|ld|st|cvt|cvta|mad|fma|shfl|vote|red|atom|bar|membar|fence|prmt|"
                  r"bfe|bfi|lop3|setp|selp|cp|mma|ldmatrix|wmma)\.[a-z]")


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
    for match in matches(ctx, _MACRO_QUERY):
        body = match["body"][0]
        code = text(body)
        if _ASM_WORD.search(code) and _PTX.search(code):
            macro = text(body.parent.child_by_field_name("name")) if body.parent else ""
            guard = _guard(body)
            where = f"; under `#if {guard}`: check the other branch is a HIP fallback" \
                if guard else ""
            yield hazard("HP420", f"inline PTX in the body of macro `{macro}` is not portable to "
                         f"AMD GPUs (the build stops where it is expanded{where})", body)
