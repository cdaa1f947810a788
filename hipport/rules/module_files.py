"""HP618 and HP619: a module file the program loads by name
(`cuModuleLoad(&m, "kernel.ptx")`).

hipModuleLoad reads a HIP code object (or an offload bundle of them) whatever
the file is called, never PTX or a CUDA cubin/fatbin.  Where the tree's build
made such files with nvcc, the conversion builds them with `hipcc --genco`
under the same name (HP617: hipport.buildfiles.code_objects), so the string,
which hipport never rewrites, stays right: HP618 says so at the call.  Where
no build file makes any, the file comes from elsewhere and must be rebuilt
(HP619).  The run knows which from the build files (hipport.buildfiles.
build_facts)."""
from __future__ import annotations

from typing import Iterator

from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import hazard, matches, query, text

MODULE_LOADS = frozenset({"cuModuleLoad", "hipModuleLoad"})  # (module, file name)
DEVICE_FILE_SUFFIXES = (".ptx", ".cubin", ".fatbin")

_QUERY = query("""
(call_expression function: (identifier) @load
  arguments: (argument_list (_) (string_literal) @file)) @call
""")


@file_rule("module-file", codes=("HP618", "HP619"))
def module_file(ctx: Context) -> Iterator[Finding]:
    if not any(name.encode() in ctx.data for name in MODULE_LOADS):  # cheap: skip the walk
        return
    for match in matches(ctx, _QUERY):
        load, literal = text(match["load"][0]), match["file"][0]
        arguments = literal.parent
        if load not in MODULE_LOADS or arguments is None or \
                arguments.named_children.index(literal) != 1:
            continue
        name = text(literal).strip('"')
        if not name.endswith(DEVICE_FILE_SUFFIXES):
            continue
        if ctx.settings.code_objects_built:
            yield hazard("HP618", f"`{name}`: hipModuleLoad reads a HIP code object; the "
                         "converted build writes one under this name (hipcc --genco, HP617)",
                         literal)
        else:
            yield hazard("HP619", f"`{name}`: hipModuleLoad reads only a HIP code object, and "
                         "no build file of the tree makes this file; build it with `hipcc "
                         f"--genco --offload-arch=<gpu> -o {name} <kernel source>`", literal)
