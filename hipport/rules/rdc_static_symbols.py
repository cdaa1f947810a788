"""HP320: a file-local (`static`) device variable that the same file's host
code names (`cudaMemcpyToSymbol(table, ...)`), in a tree whose build compiles
relocatable device code (hipport.buildfiles.build_facts).

With `-fgpu-rdc`, Clang gives the host's registration of such a variable a
per-file name (`_ZL5table.static.<id>`) while the kernels keep referring to
`_ZL5table`, and the device link fails: `lld: error: undefined symbol: table`
(HIP 5.2's Clang 15 and ROCm 6.4's Clang 21 alike; an anonymous namespace
fails the same way).  `__attribute__((used))` makes the link pass but leaves
two variables, the host writing one and the kernels reading the other.  A
variable with external linkage has one name on both sides: `static` is
removed.  Without relocatable device code the file is left alone (each file
is its own code object; `static` links), and so is a header (removing
`static` there would define the variable in every file including it)."""
from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import matches, query, text

# The runtime calls whose arguments name a device variable (CUDA's and HIP's).
SYMBOL_CALLS = frozenset(
    f"{api}{name}" for api in ("cuda", "hip") for name in (
        "MemcpyToSymbol", "MemcpyToSymbolAsync", "MemcpyFromSymbol", "MemcpyFromSymbolAsync",
        "GetSymbolAddress", "GetSymbolSize"))
_DEVICE_SPACES = frozenset({"__device__", "__constant__", "__managed__"})
_HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"})
_NAMED = frozenset({"identifier"})

_QUERY = query("""
(translation_unit (declaration (storage_class_specifier) @storage) @variable)
(namespace_definition name: (_) body: (declaration_list
  (declaration (storage_class_specifier) @storage) @variable))
(call_expression function: (identifier) @call arguments: (argument_list) @arguments)
""")


def _declared_names(declaration: Node) -> list[Node]:
    """The identifiers a declaration declares (`table` of `table[4] = {...}`)."""
    names = []
    for child in declaration.children_by_field_name("declarator"):
        node: Node | None = child
        while node is not None and node.type not in _NAMED:
            node = node.child_by_field_name("declarator")
        if node is not None:
            names.append(node)
    return names


def _named_symbols(arguments: Node) -> set[str]:
    """Identifiers given as arguments, bare or in HIP_SYMBOL(...)."""
    names = set()
    for argument in arguments.named_children:
        if argument.type == "call_expression" and text(
                argument.child_by_field_name("function") or argument) == "HIP_SYMBOL":
            inner = argument.child_by_field_name("arguments")
            argument = inner.named_children[0] if inner and inner.named_children else argument
        if argument.type == "identifier":
            names.add(text(argument))
    return names


def _device_space(declaration: Node) -> str | None:
    for child in declaration.children:
        word = text(child)
        if word in _DEVICE_SPACES:
            return word
    return None


@file_rule("rdc-static-device-symbol", codes=("HP320",))
def rdc_static_device_symbol(ctx: Context) -> Iterator[Finding]:
    if not ctx.settings.relocatable_device_code or b"static" not in ctx.data:
        return
    if not any(call.encode() in ctx.data for call in SYMBOL_CALLS):  # cheap: skip the walk
        return
    if ctx.path is not None and ctx.path.suffix.lower() in _HEADER_SUFFIXES:
        return
    found = list(matches(ctx, _QUERY))
    host_named: set[str] = set()
    for match in found:
        if "call" in match and text(match["call"][0]) in SYMBOL_CALLS:
            host_named |= _named_symbols(match["arguments"][0])
    for match in found:
        if "variable" not in match:
            continue
        declaration, storage = match["variable"][0], match["storage"][0]
        space = _device_space(declaration)
        if text(storage) != "static" or space is None:
            continue
        names = [text(n) for n in _declared_names(declaration) if text(n) in host_named]
        if not names:
            continue
        shown = ", ".join(f"`{n}`" for n in names)
        end = storage.end_byte
        while end < len(ctx.data) and ctx.data[end:end + 1] in (b" ", b"\t"):
            end += 1
        yield Finding(
            "HP320", f"{shown}: a static {space} variable the host names (a *Symbol call) in a "
            "build with relocatable device code: Clang's device link fails (`undefined symbol: "
            f"{names[0]}`); `static` removed, so host and kernels share one symbol (another "
            "file defining the same name would now clash at link)",
            storage.start_byte, storage.end_byte,
            fix=Fix((Edit(storage.start_byte, end, b""),), Applicability.SAFE,
                    "Remove `static`"))
