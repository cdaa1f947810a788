"""The generic name pass over every CMake argument: CUDA variables,
properties, imported targets and generator expressions that a plain rename
converts, and the CUDA names with no HIP counterpart.  Spans the command
rules claimed are left to them."""
from __future__ import annotations

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.code_objects import DEVICE_OUTPUT_PROPERTIES, device_output_property
from hipport.buildfiles.cmake.cuda_version import NEEDLE
from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Argument, Command
from hipport.buildfiles.libraries import (
    BY_LINK_NAME,
    DROPPED_LIBRARIES,
    dropped_message,
    looks_like_cuda_library,
)
from hipport.buildfiles.words import Word, blanks_before, identifiers


def rename_names(p: CMakePass, cmd: Command) -> None:
    in_property_command = cmd.lname in N.PROPERTY_COMMANDS
    for a in cmd.args:
        if a.kind not in (ArgKind.UNQUOTED, ArgKind.QUOTED):
            continue
        if in_property_command and a.value in N.PROPERTY_RENAMES and \
                not p.is_claimed(a.start, a.end):
            new = N.PROPERTY_RENAMES[a.value]
            p.edit("HP602", f"property {a.value} -> {new}", a.value_start, a.value_end, new)
            continue
        if in_property_command and a.value in DEVICE_OUTPUT_PROPERTIES:
            device_output_property(p, a)
            continue
        if in_property_command and a.value.startswith("CUDA_") and \
                a.value not in N.DEVICE_LINK and not p.is_claimed(a.start, a.end):
            p.report("HP651", f"property {a.value} has no HIP counterpart known to hipport",
                     a.start, a.end)
            continue
        _targets_in(p, a, cmd.lname in _LIBRARY_LISTS)
        if p.text.find(NEEDLE, a.value_start, a.value_end) < 0:
            continue  # no name _name handles (each holds the needle)
        for ident in identifiers(p.text, a.value_start, a.value_end):
            if not _may_rename(ident.text):
                continue  # most words: nothing _name would do
            # In quoted text a name is a variable only when referenced: "${X}".
            quoted_word = a.kind is ArgKind.QUOTED and p.text[ident.start - 2:ident.start] \
                != "${" and ident.text != "CUDA"
            if not p.is_claimed(ident.start, ident.end) and not quoted_word:
                _name(p, ident)


# Commands whose arguments list libraries to link: only there is a dropped
# library's target removed (elsewhere, a message say, it is only reported).
_LIBRARY_LISTS = frozenset({"target_link_libraries", "link_libraries", "set", "list"})


def _targets_in(p: CMakePass, a: Argument, links: bool) -> None:
    text = p.text
    at = text.find("::", a.value_start, a.value_end)
    while at >= 0:
        s = at
        while s > a.value_start and (text[s - 1].isalnum() or text[s - 1] == "_"):
            s -= 1
        e = at + 2
        while e < a.value_end and (text[e].isalnum() or text[e] in "_-"):
            e += 1
        name = text[s:e]
        if not p.is_claimed(s, e):
            lib = p.libs.by_target.get(name)
            if lib is not None:
                p.use(lib, s)
                p.edit("HP605", f"{name} -> {lib.target}", s, e, lib.target)
            elif links and name in DROPPED_LIBRARIES:
                _drop(p, name, a, s, e)
            elif name.startswith("CUDA::"):
                p.report("HP652", f"{name}: no ROCm counterpart known; left as it was", s, e)
                p.claimed.append((s, e))
        at = text.find("::", e, a.value_end)


_NAMES_HANDLED = frozenset({"CUDA", *N.VARIABLE_TARGETS, *N.VARIABLE_RENAMES,
                            *N.VARIABLES_REPORTED})


if not all(NEEDLE in name for name in _NAMES_HANDLED):
    raise RuntimeError(f"a CMake name handled without {NEEDLE!r}: widen the prefilter")


def _may_rename(name: str) -> bool:
    """Whether ``_name`` has anything to say about ``name``."""
    return name in _NAMES_HANDLED or name.startswith("CMAKE_CUDA_")


def _name(p: CMakePass, ident: Word) -> None:
    text, name = p.text, ident.text
    if name == "CUDA":
        opener = text.rfind("$<", max(0, ident.start - 40), ident.start)
        head = text[opener + 2:ident.start] if opener >= 0 else ""
        if any(head.startswith(k) and all(c.isalnum() or c in "_," for c in head[len(k):])
               for k in N.LANGUAGE_GENEXES):
            p.edit("HP601", f"$<{head}CUDA> -> HIP", ident.start, ident.end, "HIP")
        return
    if name.startswith("CMAKE_CUDA_"):
        suffix = name[len("CMAKE_CUDA_"):]
        if suffix in N.CMAKE_VARIABLE_SUFFIXES:
            new = "CMAKE_HIP_" + suffix
            p.edit("HP603" if suffix == "ARCHITECTURES" else "HP602", f"{name} -> {new}",
                   ident.start, ident.end, new)
        elif name in N.VARIABLE_RENAMES:
            new = N.VARIABLE_RENAMES[name]
            p.edit("HP602", f"{name} -> {new}", ident.start, ident.end, new)
        elif name not in N.CMAKE_SPECIAL:
            p.report("HP651", f"{name}: no HIP counterpart known to hipport", ident.start,
                     ident.end)
        return
    wrapped = text[ident.start - 2:ident.start] == "${" and text[ident.end:ident.end + 1] == "}"
    if name in N.VARIABLE_TARGETS and wrapped:
        lib = p.libs.by_link_name[N.VARIABLE_TARGETS[name]]
        p.use(lib, ident.start)
        p.edit("HP607", f"${{{name}}} -> {lib.target}", ident.start - 2, ident.end + 1,
               lib.target)
    elif name in N.VARIABLE_RENAMES:
        new = N.VARIABLE_RENAMES[name]
        p.edit("HP607", f"{name} -> {new}", ident.start, ident.end, new)
    elif name in N.VARIABLES_REPORTED:
        p.report("HP651", f"{name}: CUDA toolkit variable with no HIP counterpart; review by "
                 "hand", ident.start, ident.end)


def unknown_libraries(p: CMakePass, cmd: Command) -> None:
    for a in cmd.words[1:] if cmd.lname == "target_link_libraries" else cmd.words:
        if a.kind is ArgKind.UNQUOTED and a.text in DROPPED_LIBRARIES and \
                not p.is_claimed(a.start, a.end):
            _drop(p, a.text, a, a.start, a.end)
        elif a.kind is ArgKind.UNQUOTED and looks_like_cuda_library(a.text) and \
                a.text not in BY_LINK_NAME and a.text.isidentifier() and a.text.islower():
            p.report("HP652", f"library {a.text}: no ROCm counterpart known; left as it was",
                     a.start, a.end)


def _drop(p: CMakePass, name: str, a: Argument, start: int, end: int) -> None:
    """Remove a library converted builds do not link: the whole argument (its
    line, when it stands alone on one; else with the blanks before it) when
    the name is all of it, else only the name."""
    text = p.text
    if a.kind is ArgKind.UNQUOTED and (start, end) == (a.start, a.end):
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        if not text[line_start:start].strip() and line_end >= 0 and \
                not text[end:line_end].strip():
            start, end = line_start, line_end + 1
        else:
            start = blanks_before(text, start)
    lib = DROPPED_LIBRARIES[name]
    p.edit(lib.code, dropped_message(name, lib), start, end, "")
