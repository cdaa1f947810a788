"""Separable compilation and device linking (`CUDA_SEPARABLE_COMPILATION`,
`CUDA_RESOLVE_DEVICE_SYMBOLS`, their `CMAKE_` defaults) and the other
target and source properties: CUDA's device-link model becomes HIP's
`-fgpu-rdc`, CUDA architectures become the AMD offload list."""
from __future__ import annotations

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.passes import CMakePass, indent, line_span
from hipport.buildfiles.cmake.tokens import Argument, Command
from hipport.buildfiles.words import Word, removal
from hipport.edits import Edit, Fix
from hipport.findings import Finding


def properties(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    values = [w.value for w in words]
    if cmd.lname == "set_target_properties" and "PROPERTIES" in values:
        at = values.index("PROPERTIES")
        targets, pairs = words[:at], words[at + 1:]
        _property_pairs(p, cmd, targets, pairs)
    elif (cmd.lname == "set_property" and values[:1] == ["TARGET"] and "PROPERTY" in values):
        at = values.index("PROPERTY")
        targets = [w for w in words[1:at] if w.value not in ("APPEND", "APPEND_STRING")]
        if at + 1 < len(words):
            name = words[at + 1]
            if name.value in N.DEVICE_LINK:
                separable(p, cmd, name.value, words[at + 2:], targets)
            elif name.value == "CUDA_ARCHITECTURES" and len(words) > at + 2:
                architectures(p, words[at + 2:])
    elif cmd.lname == "set_source_files_properties":
        for a, b in zip(words, words[1:]):
            if a.value == "LANGUAGE" and b.value == "CUDA":
                p.edit("HP601", "source LANGUAGE CUDA -> HIP", b.value_start, b.value_end, "HIP")


def _property_pairs(p: CMakePass, cmd: Command, targets: list[Argument],
                    pairs: list[Argument]) -> None:
    kept = 0
    dropped: list[int] = []
    after: list[str] = []
    for k in range(0, len(pairs) - 1, 2):
        key, value = pairs[k], pairs[k + 1]
        if key.value in N.DEVICE_LINK:
            if key.value in N.RESOLVE_DEVICE_SYMBOLS or value.value.upper() in N.FALSE_VALUES:
                dropped.append(k)
            elif value.value.upper() in N.TRUE_VALUES:
                dropped.append(k)
                after += [line for t in targets for line in _rdc_lines(p, t)]
            else:
                p.report("HP653", f"{key.value} {value.value}: set -fgpu-rdc by hand",
                         key.start, value.end)
                kept += 1
        elif key.value == "CUDA_ARCHITECTURES":
            architectures(p, [value])
            kept += 1
        else:
            kept += 1
    if not dropped:
        return
    names = ", ".join(pairs[k].value for k in dropped)
    prefix = indent(p.text, cmd.start)
    tail = "".join(f"\n{prefix}{line}" for line in after)
    message = f"{names}: HIP uses -fgpu-rdc" + (" (added)" if after else " (removed)")
    if kept == 0:
        replacement = tail.lstrip("\n").lstrip() if after else ""
        start, end = (cmd.start, cmd.end) if after else line_span(p.text, cmd.start, cmd.end)
        p.edit("HP608", message, start, end, replacement)
        return
    words = [Word(a.text, a.start, a.end) for a in pairs]
    gone = {k for d in dropped for k in (d, d + 1)}
    edits = [removal(p.text, words, d, d + 1, gone) for d in dropped]
    if tail:
        edits.append(Edit(cmd.end, cmd.end, tail.encode("latin-1")))
    p.findings.append(Finding("HP608", message, pairs[dropped[0]].start, cmd.end,
                              Fix(tuple(edits), title=message)))
    p.claimed += [(e.start, e.end) for e in edits]


# -fgpu-rdc makes the link a device link; --hip-link makes Clang do it for a
# target without HIP sources of its own (CMake's hip-lang::device gives it
# only to targets that have some).
RDC_COMPILE = "$<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>"
RDC_LINK = '"$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>"'
# Before LLVM 17 (ROCm 5.7) Clang links no device code from a static library
# given by path, as CMake gives it, and from one given as -l only the members
# device code refers to (https://reviews.llvm.org/D152207 added
# --whole-archive); hipcc of those releases unpacked archives itself.
# Consumers there get the library's objects, from which the host linker then
# needs nothing more of the archive.  Clang 17 and newer would link them twice.
OLD_CLANG_COMMENT = ("# Clang < 17 (ROCm < 5.7) links no device code from a static library "
                     "given by path: link its objects")
OLD_CLANG_LAST_ROCM = (5, 6)


def _old_clang_link(target: str) -> str:
    condition = ("$<AND:$<LINK_LANGUAGE:HIP>,$<VERSION_LESS:$<HIP_COMPILER_VERSION>,17>,"
                 f"$<STREQUAL:$<TARGET_PROPERTY:{target},TYPE>,STATIC_LIBRARY>>")
    return f'target_link_options({target} INTERFACE "$<{condition}:$<TARGET_OBJECTS:{target}>>")'


def _old_clang_possible(p: CMakePass) -> bool:
    version = p.options.rocm_version
    return version is None or version[:2] <= OLD_CLANG_LAST_ROCM


def _rdc_lines(p: CMakePass, target: Argument) -> list[str]:
    """-fgpu-rdc for a target's compilation, and for the link that resolves its
    device code: its own (executables, shared and module libraries), or else
    that of every consumer (PUBLIC: CMake device-linked a CUDA static library
    in the executable linking it)."""
    kind = p.target_kinds.get(target.value)
    lines = [f"target_compile_options({target.text} PRIVATE {RDC_COMPILE})"]
    if kind in N.SELF_LINKED_KINDS:
        return lines + [f"target_link_options({target.text} PRIVATE {RDC_LINK})"]
    lines.append(f"target_link_options({target.text} PUBLIC {RDC_LINK})")
    if kind != "OBJECT" and _old_clang_possible(p):
        lines += [OLD_CLANG_COMMENT, _old_clang_link(target.value)]
    return lines


def separable(p: CMakePass, cmd: Command, name: str, values: list[Argument],
               targets: list[Argument]) -> None:
    value = values[0].value.upper() if values else ""
    if name in N.RESOLVE_DEVICE_SYMBOLS or value in N.FALSE_VALUES:
        start, end = line_span(p.text, cmd.start, cmd.end)
        p.edit("HP608", f"{name} {value}: no HIP meaning (removed)", start, end, "")
    elif value in N.TRUE_VALUES:
        if targets:
            lines = [line for t in targets for line in _rdc_lines(p, t)]
        else:
            lines = [f"add_compile_options({RDC_COMPILE})", f"add_link_options({RDC_LINK})"]
        text = ("\n" + indent(p.text, cmd.start)).join(lines)
        p.edit("HP608", f"{name} {value} -> -fgpu-rdc", cmd.start, cmd.end, text)
    else:
        p.report("HP653", f"{name} set from {values[0].text if values else 'nothing'}: "
                 "set -fgpu-rdc by hand", cmd.start, cmd.end)
        p.claimed.append((cmd.start, cmd.end))


def architectures(p: CMakePass, values: list[Argument]) -> None:
    stop = next((i for i, v in enumerate(values)
                 if v.value in ("CACHE", "PARENT_SCOPE", "FORCE")), len(values))
    values = values[:stop]
    if not values:
        return
    start, end = values[0].start, values[-1].end
    old = p.text[start:end]
    p.edit("HP603", f"CUDA architectures {old} -> {p.offload_list}", start, end,
           p.offload_list)
