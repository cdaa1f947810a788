"""The single-source CMake file (`--strategy compat`): each command the
rewrite changes goes behind ``if(<PROJECT>_USE_HIP)`` ... ``else()``, the
original in the ``else()`` branch (``hipport.buildfiles.single_source``)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from hipport.buildfiles.cmake.passes import indent
from hipport.buildfiles.cmake.tokens import Command
from hipport.buildfiles.single_source import (
    MARKER,
    Unit,
    apply,
    emit,
    group,
    platform_define,
    respelled,
    runs,
)
from hipport.edits import Edit, Fix
from hipport.findings import Finding

CMAKE_OPTION_HELP = "Build for AMD GPUs with HIP"
CMAKE_SUBDIR_VARIABLE = "HIPPORT_USE_HIP"
_CONDITIONS = frozenset({"if", "elseif", "while"})
_NOT_WRAPPABLE = frozenset({"else", "endif", "endwhile", "foreach", "endforeach", "function",
                            "endfunction", "macro", "endmacro", "block", "endblock", "return",
                            "break", "continue", "cmake_minimum_required", "cmake_policy"})




def project_switch(name: str) -> str | None:
    """``<PROJECT>_USE_HIP`` as CMake's string(MAKE_C_IDENTIFIER) and
    string(TOUPPER) spell it; None for a name CMake computes."""
    if not name or "$" in name:
        return None
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if ident[0].isdigit():
        ident = "_" + ident
    return f"{ident.upper()}_USE_HIP"


def cmake_compat(text: str, commands: list[Command], findings: list[Finding],
                 macro: str = "") -> list[Finding]:
    project = next((c for c in commands if c.lname == "project" and c.words), None)
    named = project_switch(project.words[0].value) if project is not None else None
    # A project name CMake computes (or no project() here): CMake spells the
    # option's name itself, into HIPPORT_USE_HIP.
    switch = named or "${" + CMAKE_SUBDIR_VARIABLE + "}"
    protected, has_switch = _cmake_protected(commands, switch)
    units = [_cmake_unit(text, c) for c in commands]
    kept, groups = group(text, units, findings, protected)
    respelled = _cmake_define(commands, switch, platform_define(macro))
    kept += [respelled] if respelled is not None else []
    if not groups:
        return kept
    out = kept
    for run in runs(text, units, list(groups), lambda gap: gap.strip() == ""):
        first, last = units[run[0]], units[run[-1]]
        if first.kind == "condition":
            new = apply(text, first.args[0], first.args[1],
                         [e for _, es in groups[run[0]] for e in es], lambda s: s)
            old = text[first.args[0]:first.args[1]]
            replacement = f"({switch} AND ({new})) OR (NOT {switch} AND ({old}))"
            out += emit(groups, run, replacement, *first.args)
            continue
        out += emit(groups, run, _cmake_block(text, units, groups, run, switch), first.start,
                     last.end)
    if not has_switch:
        out.append(_cmake_header(text, commands, project, switch, platform_define(macro)))
    return out


def _cmake_define(commands: list[Command], switch: str, define: str) -> Finding | None:
    """The definition an earlier run generated after ``option(SWITCH ...)``,
    re-spelled when ``--compat-macro`` has changed since."""
    for option, test, defines in zip(commands, commands[1:], commands[2:]):
        if (option.lname == "option" and len(option.words) > 1
                and option.words[0].value == switch and option.words[1].value == CMAKE_OPTION_HELP
                and test.lname == "if" and [w.value for w in test.words] == [switch]
                and defines.lname == "add_compile_definitions" and len(defines.words) == 1):
            return respelled(defines.words[0].value, define, defines.words[0].start,
                              defines.words[0].end)
    return None


def _cmake_unit(text: str, cmd: Command) -> Unit:
    if cmd.lname in _CONDITIONS:
        return Unit(cmd.start, cmd.end, "condition", (text.index("(", cmd.start) + 1,
                                                       cmd.end - 1))
    return Unit(cmd.start, cmd.end, "fixed" if cmd.lname in _NOT_WRAPPABLE else "wrap")


def _names_switch(cmd: Command, switch: str) -> bool:
    return any(w.value == switch or CMAKE_SUBDIR_VARIABLE in w.value for w in cmd.words)


def _cmake_protected(commands: list[Command], switch: str
                     ) -> tuple[list[tuple[int, int]], bool]:
    """Spans an earlier run generated: each ``if(SWITCH)``/``if(NOT SWITCH)``
    block, and every other command naming the switch."""
    spans: list[tuple[int, int]] = []
    has_switch = False
    for i, cmd in enumerate(commands):
        if not _names_switch(cmd, switch):
            continue
        has_switch = has_switch or cmd.lname in ("option", "string")
        values = [w.value for w in cmd.words]
        if cmd.lname == "if" and values in ([switch], ["NOT", switch]):
            depth, end = 0, cmd.end
            for later in commands[i:]:
                depth += (later.lname == "if") - (later.lname == "endif")
                if depth == 0:
                    end = later.end
                    break
            spans.append((cmd.start, end))
        else:
            spans.append((cmd.start, cmd.end))
    return spans, has_switch


def _cmake_block(text: str, units: Sequence[Unit],
                 groups: dict[int, list[tuple[Finding, list[Edit]]]], run: list[int],
                 switch: str) -> str:
    ind = indent(text, units[run[0]].start)
    inner = ind + "  "
    hip: list[str] = []
    old: list[str] = []
    for k, i in enumerate(run):
        u = units[i]
        gap = "" if k == 0 else text[units[run[k - 1]].end:u.start]
        gap = gap[:gap.rfind("\n") + 1] + inner if "\n" in gap else gap
        old.append(gap + text[u.start:u.end])
        new = apply(text, u.start, u.end, [e for _, es in groups[i] for e in es],
                     lambda s: s.replace("\n" + ind, "\n" + inner))
        if new.strip():
            hip.append((gap if hip else "") + new)
    original = "".join(old)
    if not hip:
        return f"if(NOT {switch})  {MARKER}\n{inner}{original}\n{ind}endif()"
    return (f"if({switch})  {MARKER}\n{inner}{''.join(hip)}\n{ind}else()\n"
            f"{inner}{original}\n{ind}endif()")


def _computed_name(name: str) -> list[str]:
    return [f'string(MAKE_C_IDENTIFIER "{name}_USE_HIP" {CMAKE_SUBDIR_VARIABLE})',
            f'string(TOUPPER "${{{CMAKE_SUBDIR_VARIABLE}}}" {CMAKE_SUBDIR_VARIABLE})']


def _cmake_header(text: str, commands: list[Command], project: Command | None,
                  switch: str, define: str) -> Finding:
    if project is not None:
        at = project.start
        ind = indent(text, at)
        lines = [f'option({switch} "{CMAKE_OPTION_HELP}" OFF)  {MARKER}',
                 f"if({switch})", f"  add_compile_definitions({define})", "endif()"]
        message = (f"single-source build: option {switch} (OFF: the CUDA build as it was, "
                   "ON: HIP)")
        if switch.startswith("${"):
            name = project.words[0].value
            lines = [f"{MARKER}: the option is <PROJECT>_USE_HIP, <PROJECT> the "
                     "project's name", *_computed_name(name), *lines]
            lines[3] = lines[3].replace(f"  {MARKER}", "")
            message = (f"single-source build: option <PROJECT>_USE_HIP, <PROJECT> from "
                       f"{name} (OFF: the CUDA build as it was, ON: HIP)")
    else:
        at = commands[0].start
        ind = indent(text, at)
        lines = [f"{MARKER}: the switch is the project's <PROJECT>_USE_HIP option",
                 *_computed_name("${PROJECT_NAME}")]
        message = "single-source build: switched by the project's <PROJECT>_USE_HIP option"
    block = "".join(f"{line}\n{ind}" for line in lines)
    fix = Fix((Edit(at, at, block.encode("latin-1")),), title=message)
    return Finding("HP614", message, at, at, fix)


