"""HP416: the project defines an atomic overload CUDA lacks and HIP declares.

CUDA has no `atomicMax(float*, float)`, so CUDA code often defines one (a
compare-and-swap loop, or the integer trick for non-negative floats).  HIP
declares it, with the other floating-point and `unsigned long` atomics
below (amd_hip_atomic.h, HIP 5.2 and ROCm 6.4 alike), as inline functions:
a definition with the same parameters is a redefinition and the file does
not compile.  A template, or a function in a namespace, is another entity
and is left alone."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

# What HIP declares (global namespace, device code) that CUDA does not, by
# the type the first parameter points to.
HIP_ONLY = {
    "atomicAdd": ("unsigned long",),
    "atomicSub": ("float", "double", "unsigned long"),
    "atomicExch": ("double", "unsigned long"),
    "atomicCAS": ("float", "double", "unsigned long"),
    "atomicMin": ("float", "double", "unsigned long"),
    "atomicMax": ("float", "double", "unsigned long"),
    "atomicAnd": ("unsigned long",),
    "atomicOr": ("unsigned long",),
    "atomicXor": ("unsigned long",),
}
_QUERY = query("""
(function_definition
  declarator: (function_declarator
    declarator: (identifier) @name
    parameters: (parameter_list . (parameter_declaration) @first))) @node
""")
# Where a definition is one of the global namespace (in a namespace, a class
# or a template it is another entity).
_GLOBAL = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_elif",
                     "preproc_else"})
_QUALIFIERS = frozenset({"const", "volatile"})


def _pointee(parameter: Node) -> str | None:
    """The type a `T*` parameter points to, spelled plainly; None otherwise."""
    declarator = parameter.child_by_field_name("declarator")
    kind = parameter.child_by_field_name("type")
    if declarator is None or kind is None or declarator.type != "pointer_declarator":
        return None
    inner = declarator.child_by_field_name("declarator")
    if inner is not None and inner.type == "pointer_declarator":
        return None  # T**
    words = [w for w in text(kind).split() if w not in _QUALIFIERS]
    words = ["long" if w == "long" else w for w in words]
    spelled = " ".join(words)
    return {"unsigned long int": "unsigned long"}.get(spelled, spelled)


def _global_and_for_hip(node: Node) -> bool:
    """A definition of the global namespace that the AMD build sees: not
    under a conditional naming HIP (`#ifndef __HIP_PLATFORM_AMD__`), which
    means the project keeps it apart already."""
    parent = node.parent
    while parent is not None:
        if parent.type not in _GLOBAL:
            return False
        tested = parent.parent if parent.type == "preproc_else" else parent
        condition = None if tested is None else (
            tested.child_by_field_name("condition") or tested.child_by_field_name("name"))
        if condition is not None and "HIP" in text(condition):
            return False
        parent = parent.parent
    return True


@file_rule("hazard-atomic-overloads", codes=("HP416",))
def atomic_overloads(ctx: Context) -> Iterator[Finding]:
    if b"atomic" not in ctx.data:  # cheap: skip the tree walk
        return
    for match in matches(ctx, _QUERY):
        name = text(match["name"][0])
        pointee = _pointee(match["first"][0])
        if pointee is None or pointee not in HIP_ONLY.get(name, ()):
            continue
        node = match["node"][0]
        if not _global_and_for_hip(node):
            continue
        yield hazard("HP416", f"`{name}({pointee}*, ...)` is defined here and HIP declares it "
                     "too (CUDA does not): a redefinition, the file does not compile; rename "
                     "this one (and its calls) or keep it for CUDA only "
                     "(`#if !defined(__HIP_PLATFORM_AMD__)`) and use HIP's", match["name"][0])
