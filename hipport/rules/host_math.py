"""HP313: C's floating-point classification functions called unqualified in
host code (`isfinite(x)`, `isnan(x)`, ...).

nvcc's headers declare them in the global namespace for host code; with HIP
(5.2 and ROCm 6.4 alike) only their device overloads are there, and a host
function that includes <cmath> stops at `no matching function for call to
'isfinite'` (llm.c's shared test helper did, in ten programs).  `std::isfinite`
is the same function and compiles in host, device and host-device code on
both.  Left alone: a C file, a header that may be C, a file where nothing
declares `std::isfinite` (no <cmath>, no HIP runtime header), a call in
device-only code, and a file that declares a function of that name."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import enclosing_function, matches, query, text

CLASSIFICATION = frozenset({
    "isfinite", "isinf", "isnan", "isnormal", "signbit", "fpclassify", "isgreater",
    "isgreaterequal", "isless", "islessequal", "islessgreater", "isunordered",
})
_HIP_SUFFIXES = frozenset({".cu", ".cuh", ".hip"})
_CXX_SIGNS = (b"template", b"namespace", b"class ", b"::", b"__global__", b"__device__")
_RUNTIME = (b"cuda_runtime", b"<cuda.h>", b"hip_runtime")

_QUERY = query("""
(call_expression function: (identifier) @name) @call
(function_declarator declarator: (identifier) @declared)
""")


def _cxx_with_std_math(ctx: Context) -> bool:
    """C++ in which ``std::isfinite`` is declared: <cmath> included, or the
    HIP runtime header (which brings it) in a HIP source or in a header that
    is C++ (a `.h` may be C, where std:: does not compile)."""
    if b"<cmath>" in ctx.data:
        return True
    suffix = ctx.path.suffix if ctx.path is not None else ".cu"
    if suffix in _HIP_SUFFIXES:
        return True
    if suffix == ".c" or not any(r in ctx.data for r in _RUNTIME):
        return False
    return any(sign in ctx.data for sign in _CXX_SIGNS)


def _host_compiled(function: Node) -> bool:
    """Compiled for the host: not a kernel, not __device__ alone."""
    qualifiers = {c.type for c in function.children}
    if "__global__" in qualifiers:
        return False
    return "__device__" not in qualifiers or "__host__" in qualifiers


@file_rule("host-math-classification", codes=("HP313",))
def host_math_classification(ctx: Context) -> Iterator[Finding]:
    if not any(name.encode() in ctx.data for name in CLASSIFICATION):  # cheap: skip the walk
        return
    if not _cxx_with_std_math(ctx):
        return
    found = list(matches(ctx, _QUERY))
    own = {text(m["declared"][0]) for m in found if "declared" in m}
    for match in found:
        if "name" not in match:
            continue
        name_node = match["name"][0]
        name = text(name_node)
        if name not in CLASSIFICATION or name in own:
            continue
        function = enclosing_function(name_node)
        if function is None or not _host_compiled(function):
            continue
        yield Finding("HP313", f"`{name}(...)` in host code: HIP declares only its device "
                      f"overloads in the global namespace; `std::{name}` is the same function",
                      name_node.start_byte, name_node.end_byte,
                      fix=Fix((Edit(name_node.start_byte, name_node.start_byte, b"std::"),),
                              Applicability.SAFE, f"Write `std::{name}`"))
