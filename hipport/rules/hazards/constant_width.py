"""HP321: `warpSize` where C++ needs a constant expression (an array bound,
a template argument, `static_assert`, a `constexpr` initialiser, a `case`
label, an enumerator, a bit-field width, `alignas`, `if constexpr`).

ROCm 6.x declared `warpSize` `static constexpr int` (`__AMDGCN_WAVEFRONT_SIZE`),
so HIP code used it as a compile-time width; ROCm 7's `warpSize` is a device
object whose `operator int()` calls `__builtin_amdgcn_wavefrontsize()`, and
Clang 22 defines no `__AMDGCN_WAVEFRONT_SIZE`: every such use fails to
compile ("array size is not a constant expression").  nvcc's `warpSize` is
no constant either, so such code is HIP already (a tree ported before, a
`#ifdef __HIP_PLATFORM_AMD__` branch).

``constant_context`` also keeps hipport's own rewrites out of these places:
HP401's fix (`% 32` -> `% warpSize`) is not offered there (HP322)."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

_QUERY = query("""
((identifier) @warp_size_use (#eq? @warp_size_use "warpSize"))
((type_identifier) @warp_size_use (#eq? @warp_size_use "warpSize"))
""")
# What a person does instead, checked on the 7.2 oracle: Clang 22 defines no
# __AMDGCN_WAVEFRONT_SIZE(__), __builtin_amdgcn_wavefrontsize() is no constant
# expression either, and __GFX9__ is defined in the device pass for CDNA.
ROCM7_WAY = ("define a compile-time constant of your own per target (64 where __GFX9__ is "
             "defined: CDNA, MI100-MI300; 32 on RDNA) or read warpSize / "
             "__builtin_amdgcn_wavefrontsize() at run time")
_CONSTANT_SPECIFIERS = frozenset({"constexpr", "constinit", "consteval"})
# Where walking up from an expression stops: nothing above makes it constant.
_BOUNDARIES = frozenset({"compound_statement", "function_definition", "lambda_expression",
                         "field_declaration_list", "declaration_list", "translation_unit",
                         "expression_statement", "return_statement"})
_ENCLOSING = {"template_argument_list": "a template argument",
              "template_parameter_list": "a template parameter's default",
              "static_assert_declaration": "a static_assert",
              "enumerator": "an enumerator's value",
              "bitfield_clause": "a bit-field width",
              "alignas_qualifier": "alignas"}


def _constant_declaration(node: Node) -> bool:
    return any(child.type in ("type_qualifier", "storage_class_specifier")
               and text(child) in _CONSTANT_SPECIFIERS for child in node.children)


def constant_context(node: Node) -> str | None:
    """Which constant expression ``node`` is part of ("an array bound"), or
    None when it is evaluated at run time."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in _BOUNDARIES:
        if parent.type in _ENCLOSING:
            return _ENCLOSING[parent.type]
        if parent.type == "array_declarator" and parent.child_by_field_name("size") == child:
            return "an array bound"
        if parent.type == "case_statement" and parent.child_by_field_name("value") == child:
            return "a case label"
        if parent.type == "condition_clause" and parent.parent is not None \
                and any(c.type == "constexpr" for c in parent.parent.children):
            return "an if constexpr condition"
        if parent.type == "init_declarator" and parent.child_by_field_name("value") == child:
            declaration = parent.parent
            return "a constexpr initialiser" if declaration is not None \
                and _constant_declaration(declaration) else None
        if parent.type == "field_declaration" \
                and parent.child_by_field_name("default_value") == child:
            return "a constexpr initialiser" if _constant_declaration(parent) else None
        child, parent = parent, parent.parent
    return None


def _declares_its_own(node: Node) -> bool:
    """``warpSize`` named where the file defines it (a macro, a variable)."""
    parent = node.parent
    if parent is None:
        return False
    return (parent.type == "preproc_def" and parent.child_by_field_name("name") == node) or \
        (parent.type in ("init_declarator", "declaration", "field_declaration")
         and parent.child_by_field_name("declarator") == node)


@file_rule("hazard-warp-size-constant-expression", codes=("HP321",))
def warp_size_constant_expression(ctx: Context) -> Iterator[Finding]:
    if b"warpSize" not in ctx.data:
        return
    uses = [m["warp_size_use"][0] for m in matches(ctx, _QUERY) if "warp_size_use" in m]
    if any(_declares_its_own(use) for use in uses):
        return  # the project's own warpSize: whatever it is, it is not HIP's
    for use in uses:
        where = constant_context(use)
        if where is not None:
            yield hazard("HP321", f"`warpSize` in {where}: ROCm 7's warpSize is not a "
                         f"constant expression; {ROCM7_WAY}", use)
