"""What NVRTC programs keep in strings: the options (HP314, HP315).

Strings are not rewritten as code is, but the options a program hands to
`nvrtcCompileProgram` are read by hipRTC, which passes them to Clang: an NVRTC
spelling fails the compile at run time.  In a file that uses NVRTC, a string
literal that is exactly an NVRTC option, written where options are collected
(an initializer list, an assignment, a `push_back`), gets a finding: its
Clang spelling where one means the same (HP314, a safe fix), else what to do
(HP315; an architecture gets an unsafe fix pinning the first offload target).
A literal compared (`strcmp(arg, "-G")`) or printed is left alone."""
from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.rules import Context, file_rule
from hipport.rules.hazards.nodes import matches, query, text

# NVRTC option -> the Clang option of the same meaning (docs/nvrtc.md).
TRANSLATED: dict[str, str] = {
    "--fmad=false": "-ffp-contract=off", "-fmad=false": "-ffp-contract=off",
    "--fmad=true": "-ffp-contract=fast", "-fmad=true": "-ffp-contract=fast",
    "--use_fast_math": "-ffast-math", "-use_fast_math": "-ffast-math",
    "-lineinfo": "-gline-tables-only", "--generate-line-info": "-gline-tables-only",
    "-G": "-g", "--device-debug": "-g",
    "--ftz=true": "-fgpu-flush-denormals-to-zero", "-ftz=true": "-fgpu-flush-denormals-to-zero",
    "--ftz=false": "-fno-gpu-flush-denormals-to-zero",
    "-ftz=false": "-fno-gpu-flush-denormals-to-zero",
    "-rdc=true": "-fgpu-rdc", "--relocatable-device-code=true": "-fgpu-rdc",
    "-rdc=false": "-fno-gpu-rdc", "--relocatable-device-code=false": "-fno-gpu-rdc",
    "--disable-warnings": "-w",
}
# NVRTC option prefix -> Clang's (the value kept).
TRANSLATED_PREFIXES: dict[str, str] = {
    "--include-path=": "-I", "--define-macro=": "-D", "--undefine-macro=": "-U",
    "--std=": "-std=",
}
# NVRTC options with no hipRTC meaning -> what to do instead.
_REMOVE = "remove it (and count the options again)"
UNSUPPORTED: dict[str, str] = {
    "-default-device": f"{_REMOVE}, and mark the functions the kernels call `__device__`",
    "--device-as-default-execution-space": f"{_REMOVE}, and mark the functions the kernels "
                                           "call `__device__`",
    "--extra-device-vectorization": f"Clang vectorizes by default: {_REMOVE}",
    "-extra-device-vectorization": f"Clang vectorizes by default: {_REMOVE}",
    "-dopt=on": f"Clang optimizes device code at -O3 by default: {_REMOVE}",
    "--dopt=on": f"Clang optimizes device code at -O3 by default: {_REMOVE}",
    "-ewp": _REMOVE, "--extensible-whole-program": _REMOVE,
    "-restrict": f"mark pointers `__restrict__` in the source, or {_REMOVE}",
    "--restrict": f"mark pointers `__restrict__` in the source, or {_REMOVE}",
    "-dlto": _REMOVE, "--dlink-time-opt": _REMOVE,
    "--device-int128": f"Clang has __int128 on AMD GPUs: {_REMOVE}",
    "-device-int128": f"Clang has __int128 on AMD GPUs: {_REMOVE}",
    "--prec-div=true": f"Clang divides exactly by default: {_REMOVE}",
    "-prec-div=true": f"Clang divides exactly by default: {_REMOVE}",
    "--prec-sqrt=true": f"Clang's sqrt is exact by default: {_REMOVE}",
    "-prec-sqrt=true": f"Clang's sqrt is exact by default: {_REMOVE}",
    "--prec-div=false": f"approximate division has no option of its own (-ffast-math "
                        f"includes it): {_REMOVE}",
    "-prec-div=false": "approximate division has no option of its own (-ffast-math "
                       f"includes it): {_REMOVE}",
    "--prec-sqrt=false": f"an approximate sqrt has no option of its own: {_REMOVE}",
    "-prec-sqrt=false": f"an approximate sqrt has no option of its own: {_REMOVE}",
}
UNSUPPORTED_PREFIXES: dict[str, str] = {
    "--ptxas-options=": f"PTX assembler options: {_REMOVE}",
    "-Xptxas=": f"PTX assembler options: {_REMOVE}",
    "--maxrregcount=": f"a register limit: use __launch_bounds__ in the source, and {_REMOVE}",
    "-maxrregcount=": f"a register limit: use __launch_bounds__ in the source, and {_REMOVE}",
    "--split-compile=": _REMOVE, "-split-compile=": _REMOVE,
    "--time=": _REMOVE, "-time=": _REMOVE,
    "--fdevice-time-trace=": _REMOVE, "-fdevice-time-trace=": _REMOVE,
    "--pch-dir=": _REMOVE, "--create-pch=": _REMOVE, "--use-pch=": _REMOVE,
}
_ARCH_OPTION = r"(?:--gpu-architecture|-arch|--gpu-code|-code)"
_ARCH = re.compile(_ARCH_OPTION + r"(?:=|\s+)((?:sm|compute|lto)_\d+[a-z]?|native|all|all-major)")
_BARE_ARCH = re.compile(_ARCH_OPTION)
# Where a literal is one of a program's options: collected, not compared or printed.
_COLLECTED = frozenset({"initializer_list", "init_declarator", "assignment_expression"})
_COLLECTING_CALL = re.compile(r"(?i)push_back|emplace_back|append|insert|add|option|nvrtc|"
                              r"hiprtc|compile")

_QUERY = query("(string_literal) @option")


def _collected(node: Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type in ("cast_expression", "parenthesized_expression"):
        parent = parent.parent  # `(char*)"--fmad=false"`
    if parent is None:
        return False
    if parent.type in _COLLECTED:
        return True
    if parent.type == "argument_list" and parent.parent is not None and \
            parent.parent.type == "call_expression":
        function = parent.parent.child_by_field_name("function")
        return function is not None and _COLLECTING_CALL.search(text(function)) is not None
    return False


def _option(node: Node) -> str | None:
    """The literal's text when it is a plain `"..."` with no escapes."""
    raw = text(node)
    if len(raw) < 3 or not raw.startswith('"') or not raw.endswith('"') or "\\" in raw:
        return None
    return raw[1:-1]


def translated(option: str) -> str | None:
    if option in TRANSLATED:
        return TRANSLATED[option]
    for prefix, clang in TRANSLATED_PREFIXES.items():
        if option.startswith(prefix) and len(option) > len(prefix):
            return clang + option[len(prefix):]
    return None


def unsupported(option: str) -> str | None:
    if option in UNSUPPORTED:
        return UNSUPPORTED[option]
    return next((why for prefix, why in UNSUPPORTED_PREFIXES.items()
                 if option.startswith(prefix)), None)


def _replace(node: Node, option: str, code: str, message: str,
             applicability: Applicability) -> Finding:
    fix = Fix((Edit(node.start_byte + 1, node.end_byte - 1, option.encode()),), applicability,
              f'Write "{option}"')
    return Finding(code, message, node.start_byte, node.end_byte, fix=fix)


@file_rule("nvrtc-options", codes=("HP314", "HP315"))
def nvrtc_options(ctx: Context) -> Iterator[Finding]:
    if b"nvrtc" not in ctx.data and b"hiprtc" not in ctx.data:
        return
    target = ctx.settings.offload_arch[0]
    for match in matches(ctx, _QUERY):
        node = match["option"][0]
        option = _option(node)
        if option is None or not option.startswith("-") or not _collected(node):
            continue
        if (clang := translated(option)) is not None:
            yield _replace(node, clang, "HP314", f'NVRTC option "{option}" -> "{clang}" '
                           "(hipRTC passes its options to Clang)", Applicability.SAFE)
        elif (arch := _ARCH.fullmatch(option)) is not None:
            before = "compute_XX's PTX was compiled for the GPU present when loaded" \
                if arch.group(1).startswith("compute") else f"{arch.group(1)} named one GPU"
            yield _replace(node, f"--offload-arch={target}", "HP315",
                           f'NVRTC option "{option}" names an NVIDIA architecture, which '
                           "hipRTC rejects: without an architecture option it compiles for "
                           f'the current device ({before}); "--offload-arch={target}" pins '
                           "one GPU", Applicability.UNSAFE)
        elif _BARE_ARCH.fullmatch(option):
            yield Finding("HP315", f'NVRTC option "{option}" takes an NVIDIA architecture in '
                          "the next string: remove both (hipRTC compiles for the current "
                          f'device) or write the one option "--offload-arch={target}"',
                          node.start_byte, node.end_byte)
        elif (why := unsupported(option)) is not None:
            yield Finding("HP315", f'NVRTC option "{option}" means nothing to hipRTC (Clang '
                          f"rejects it): {why}", node.start_byte, node.end_byte)
