"""Which ``.cu`` sources a target command adds, named as CMake resolves
them, for the ``set_source_files_properties(... LANGUAGE HIP)`` written
after it.

A source property is looked up by the file's full path, in the directory
of the target, so the names must be those of the command itself,
evaluated in the same listing: a literal as written, a variable as
``${VAR}`` (its values may have been moved since: ``list(TRANSFORM VAR
PREPEND src/cuda/)``; a variable set in another listing, with
``PARENT_SCOPE``, is only known here by name).  A variable that may hold
other files too (C++ sources, headers, which must not become HIP) is
filtered to its ``.cu`` files first.  ``target_sources`` on a target of
another directory needs ``TARGET_DIRECTORY``: the property set in this
directory is not seen there, and the file is silently left out of the
build (CMake compiles no file of an unknown language)."""
from __future__ import annotations

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.passes import CMakePass
from hipport.buildfiles.cmake.tokens import ArgKind, Command

_GLOB_OPTIONS = frozenset({"CONFIGURE_DEPENDS", "LIST_DIRECTORIES", "RELATIVE",
                           "FOLLOW_SYMLINKS"})
_AUX = "<aux_source_directory>"  # a value standing for whatever a folder holds
FILTERED = "_HIPPORT_CU"  # suffix of the variable holding a list's .cu files

# (code, message, line) of one line written after a target command.
Line = tuple[str, str, str]


def record_values(p: CMakePass, cmd: Command) -> None:
    """The values this file gives each variable (``set``, ``list(APPEND)``,
    ``file(GLOB)`` patterns, ``aux_source_directory``)."""
    words = [w.value for w in cmd.words]
    if cmd.lname == "set" and words:
        name, values = words[0], words[1:]
        for keyword in ("CACHE", "PARENT_SCOPE"):
            values = values[:values.index(keyword)] if keyword in values else values
    elif cmd.lname == "list" and len(words) > 1 and words[0] in ("APPEND", "PREPEND"):
        name, values = words[1], words[2:]
    elif cmd.lname == "file" and len(words) > 2 and words[0] in ("GLOB", "GLOB_RECURSE"):
        name, values = words[1], [v for v in words[2:] if v not in _GLOB_OPTIONS]
    elif cmd.lname == "aux_source_directory" and len(words) == 2:
        name, values = words[1], [_AUX]
    else:
        return
    p.variable_values.setdefault(name, []).extend(values)


def source_lines(p: CMakePass, cmd: Command) -> tuple[list[Line], bool]:
    """The lines that mark the ``.cu`` sources of a target command as HIP
    (those not marked already), and whether it is known to have any."""
    words = cmd.words
    target = words[0].text
    real = cmd.lname in N.TARGET_COMMANDS  # a project's own command: its literals only
    named: list[str] = []  # as written: literals, and variables of .cu files only
    filtered: list[str] = []  # variables that may hold other files too
    for w in words[1:]:
        value = w.value
        if w.kind is ArgKind.BRACKET or "$<" in value:
            continue
        if value.endswith(".cu"):
            named.append(w.text)  # (a ${VAR} in the name is expanded there too)
        elif _reference(value):
            name = value[2:-1]
            kind = _holds(p, name)
            if kind == "cu" and (real or name in p.cu_variables):
                named.append(value)
            elif kind == "some" and (real or name in p.cu_variables):
                filtered.append(name)
    has_cu = bool(named) or any(v in p.cu_variables for v in filtered)
    if not (has_cu or filtered and _cuda_aware(p)):
        return [], False
    where = f" TARGET_DIRECTORY {target}" if _elsewhere(p, cmd) else ""
    lines: list[Line] = []
    block = p.block(cmd)
    named = [s for s in dict.fromkeys(named) if not p.hip_sources.hold(s.strip('"'), block)]
    if named:
        for source in named:
            p.hip_sources.add(source.strip('"'), block)
        lines.append(("HP606", f"{', '.join(named)}: compiled as HIP",
                      f"set_source_files_properties({' '.join(named)}{where} "
                      "PROPERTIES LANGUAGE HIP)"))
    for variable in dict.fromkeys(filtered):
        kept = f"{variable}{FILTERED}"
        if p.hip_sources.hold(f"${{{kept}}}", block):
            continue
        p.hip_sources.add(f"${{{kept}}}", block)
        lines += [("HP606", f"the .cu files of ${{{variable}}}: compiled as HIP (the list may "
                   "hold other files, which stay as they are)", line) for line in (
                       f"set({kept} ${{{variable}}})",
                       f'list(FILTER {kept} INCLUDE REGEX "\\\\.cu$")',
                       f"set_source_files_properties(${{{kept}}}{where} PROPERTIES LANGUAGE HIP)")]
    return lines, has_cu


def _reference(value: str) -> bool:
    return value.startswith("${") and value.endswith("}") and value.count("$") == 1


def _holds(p: CMakePass, name: str) -> str:
    """"cu": only .cu files; "none": no .cu file, as far as this file shows;
    "some": maybe .cu files among others (or set elsewhere: unknown)."""
    values = p.variable_values.get(name)
    if values is None:
        return "some"
    if all(v.endswith(".cu") for v in values):
        return "cu"
    # (aux_source_directory's .cu files are marked where it is: _aux_sources)
    if any(v.endswith(".cu") or "$" in v for v in values):
        return "some"
    return "none"


def _cuda_aware(p: CMakePass) -> bool:
    """A file where a variable of unknown content is worth filtering: it
    enables CUDA, finds the toolkit, or names .cu files itself."""
    return p.language_converted or bool(p.toolkit_finds) or bool(p.cu_variables)


def _elsewhere(p: CMakePass, cmd: Command) -> bool:
    """target_sources on a target this file does not create."""
    return cmd.lname == "target_sources" and cmd.words[0].text not in p.target_kinds
