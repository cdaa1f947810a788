"""CMake rules: CUDA language, variables, packages, targets and flags -> HIP.

Every edit is a byte span of one token (or an insertion after a command);
comments, quoting and layout are kept.  Specific command rules run first and
claim the spans they rewrite; the generic name pass (``cmake_renames``)
skips claimed spans.  Device linking lives in ``cmake_rdc``, nvcc flags in
``cmake_flags``."""
from __future__ import annotations

import itertools
import re

from hipport.buildfiles.cmake import names as N
from hipport.buildfiles.cmake.code_objects import architecture_loops, custom_command, is_arch_list
from hipport.buildfiles.cmake.cuda_version import cuda_versions
from hipport.buildfiles.cmake.flags import flag_arguments, flag_variables
from hipport.buildfiles.cmake.gpu_targets import default_architectures
from hipport.buildfiles.cmake.packages import insert_find_packages
from hipport.buildfiles.cmake.passes import CMakePass, block_paths, indent
from hipport.buildfiles.cmake.rdc import architectures, properties, separable
from hipport.buildfiles.cmake.renames import rename_names, unknown_libraries
from hipport.buildfiles.cmake.sources import record_values, source_lines
from hipport.buildfiles.cmake.tokens import ArgKind, Argument, Command
from hipport.buildfiles.libraries import BY_LINK_NAME, BY_TARGET
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.hip_branches import is_hip_macro
from hipport.settings import Settings


def cmake_findings(text: str, commands: list[Command], options: Settings) -> list[Finding]:
    p = CMakePass(text, options, arch_loops=architecture_loops(commands))
    _survey(p, commands)
    p.flag_variables = flag_variables(commands)
    for cmd in commands:
        cuda_versions(p, cmd)
        handler = _HANDLERS.get(cmd.lname)
        if cmd.lname.startswith("_cudatoolkit_"):
            p.report("HP653", f"{cmd.name}: FindCUDAToolkit's private helper; the converted "
                     "project finds ROCm's packages, which define no such command, so CMake "
                     "stops with \"Unknown CMake command\": find the library's ROCm package "
                     "instead, or remove the call", cmd.start, cmd.end)
        elif handler is not None:
            handler(p, cmd)
        elif cmd.lname not in N.NOT_SOURCE_COMMANDS:  # a function of the project's, say
            _target(p, cmd)
        elif cmd.lname in N.LEGACY_MANUAL:
            p.report("HP653", f"{cmd.name}: FindCUDA compilation step with no HIP "
                     "counterpart; port by hand", cmd.start, cmd.end)
        if cmd.lname in N.FLAG_COMMANDS:
            flag_arguments(p, cmd, list(cmd.words[1:] if cmd.lname.startswith("target_")
                                         else cmd.words))
    for cmd in commands:
        rename_names(p, cmd)
    for cmd in commands:
        if cmd.lname == "cmake_minimum_required":
            _minimum_version(p, cmd)
    insert_find_packages(p, commands)
    default_architectures(p, commands)
    return p.findings


def _survey(p: CMakePass, commands: list[Command]) -> None:
    """What the file already has: sources marked HIP,
    variables holding lists of .cu files, and the kind of each target."""
    p.blocks = {cmd.start: block for cmd, block in zip(commands, block_paths(commands))}
    for cmd in commands:
        record_values(p, cmd)
        words = cmd.words
        if cmd.lname in N.EXECUTABLE_COMMANDS and words:
            p.target_kinds[words[0].text] = "EXECUTABLE"
        elif cmd.lname in N.LIBRARY_COMMANDS and words:
            kind = words[1].value if len(words) > 1 else ""
            p.target_kinds[words[0].text] = kind if kind in N.LIBRARY_TYPES else ""
        elif cmd.lname == "target_link_libraries" and words:
            target = words[0].text
            p.link_keywords[target] = p.link_keywords.get(target, False) or any(
                w.value in N.LINK_SCOPES for w in words[1:])
            if any(_is_host_runtime(w.value) for w in words[1:]):
                p.host_linked.add(target, p.block(cmd))
        elif cmd.lname == "set_source_files_properties":
            values = [w.value for w in words]
            if "LANGUAGE" in values and "HIP" in values:
                for source in values[:values.index("PROPERTIES")] if "PROPERTIES" in values \
                        else []:
                    p.hip_sources.add(source, p.block(cmd))
        elif cmd.lname in ("set", "list") and words:
            names = words[1:] if cmd.lname == "list" else words
            if cmd.lname == "list" and words[0].value not in ("APPEND", "PREPEND"):
                continue
            if names:
                cus = [w.value for w in names[1:] if w.value.endswith(".cu")]
                if cus:
                    p.cu_variables.setdefault(names[0].value, []).extend(cus)
                if any(_is_cxx_source(w.value) for w in names[1:]):
                    p.cxx_variables.add(names[0].value)
        elif cmd.lname == "file" and len(words) > 2 and words[0].value in ("GLOB",
                                                                            "GLOB_RECURSE"):
            patterns = [w.value for w in words[2:] if w.value not in
                        ("CONFIGURE_DEPENDS", "LIST_DIRECTORIES", "RELATIVE", "FOLLOW_SYMLINKS")]
            if patterns and all(x.endswith(".cu") for x in patterns):
                p.cu_variables.setdefault(words[1].value, []).append(f"${{{words[1].value}}}")
            elif any(_is_cxx_source(x) for x in patterns):
                p.cxx_variables.add(words[1].value)


# -------------------------------------------------------------- languages --
def _languages(p: CMakePass, cmd: Command) -> None:
    args = cmd.words[1:] if cmd.lname == "project" else cmd.words
    # project(X LANGUAGES CUDA) enables CUDA alone; HIP alone would leave
    # find_package(hip) failing ("FindThreads only works if either C or CXX
    # language is enabled", from hip-config-amd.cmake): CXX comes with it.
    host = cmd.lname != "project" or any(a.value in _HOST_LANGUAGES
                                         for a in _project_languages(args))
    for a in args:
        if a.kind is ArgKind.UNQUOTED and a.text == "CUDA":
            if host:
                p.edit("HP601", f"{cmd.name}: CUDA language -> HIP", a.start, a.end, "HIP")
            else:
                p.edit("HP601", f"{cmd.name}: CUDA language -> HIP, with CXX (HIP's CMake "
                       "package needs C or CXX enabled)", a.start, a.end, "CXX HIP")
            p.language_converted = True
            p.language_end = p.language_end or cmd.end


_HOST_LANGUAGES = frozenset({"C", "CXX"})
_PROJECT_KEYWORDS = frozenset({"VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES"})


def _project_languages(args: list[Argument]) -> list[Argument]:
    """The languages a project() enables: after LANGUAGES, or the short form's
    arguments; none given means C and CXX."""
    values = [a.value for a in args]
    if "LANGUAGES" in values:
        rest = args[values.index("LANGUAGES") + 1:]
        return list(itertools.takewhile(lambda a: a.value not in _PROJECT_KEYWORDS, rest))
    if any(v in _PROJECT_KEYWORDS for v in values):
        return []
    return args


def _minimum_version(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    for i, a in enumerate(words[:-1]):
        if a.value != "VERSION":
            continue
        version = words[i + 1]
        low = version.value.split("...")[0]
        try:
            parsed = tuple(int(x) for x in low.split("."))
        except ValueError:
            return
        if p.language_converted and parsed[:2] < N.HIP_MINIMUM_CMAKE:
            start = version.value_start
            p.edit("HP613", f"cmake_minimum_required {low} -> 3.21 (first CMake with the HIP "
                   "language)", start, start + len(low), "3.21")
        return


# --------------------------------------------------------------- packages --
def _find_package(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    if not words or words[0].value not in p.libs.packages:
        return
    name = words[0]
    package = p.libs.packages[name.value]
    p.edit("HP604", f"find_package({name.value}) -> find_package({package})",
           name.start, name.end, package)
    if len(words) > 1 and words[1].value[:1].isdigit():
        version = words[1]
        p.edit("HP604", f"CUDA version {version.value} dropped from find_package "
               f"({package} has its own versions)", name.end, version.end, "")
    if package == "hip":
        p.toolkit_finds.append((cmd, any(w.value == "REQUIRED" for w in words)))


# ---------------------------------------------------------------- targets --
def _target(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    if not words or any(w.value in ("IMPORTED", "ALIAS", "INTERFACE") for w in words[1:2]):
        return
    lname = cmd.lname
    if lname in N.LEGACY_RENAMES:
        if any(w.value == "OPTIONS" for w in words):
            p.report("HP653", f"{cmd.name} with OPTIONS: move the flags to "
                     "target_compile_options and use add_executable/add_library",
                     cmd.start, cmd.end)
            return
        new = N.LEGACY_RENAMES[lname]
        p.edit("HP607", f"{cmd.name} -> {new}", cmd.start, cmd.start + len(cmd.name), new)
    # Lines added after the command, one insertion (each with its finding).
    added, has_cu = source_lines(p, cmd)
    if lname in N.EXECUTABLE_COMMANDS | N.LIBRARY_COMMANDS and (has_cu or p.language_converted):
        added += _host_runtime(p, cmd)
    if added:
        ind = indent(p.text, cmd.start)
        text = "".join(f"\n{ind}{line}" for _, _, line in added)
        fix = Fix((Edit(cmd.end, cmd.end, text.encode("latin-1")),),
                  title="; ".join(message for _, message, _ in added))
        p.findings += [Finding(code, message, cmd.end, cmd.end, fix)
                       for code, message, _ in added]


_CXX_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C", ".c")
_HOST_TARGETS = frozenset({"hip::host", "hip::device", "CUDA::cudart", "CUDA::cudart_static",
                           "CUDA::cuda_driver"})


def _is_host_runtime(name: str) -> bool:
    """A link item that is (or becomes) HIP's runtime: hip::host, cudart, CUDA::cudart."""
    lib = BY_LINK_NAME.get(name) or BY_TARGET.get(name)
    return name in _HOST_TARGETS or (lib is not None and lib.key == "hip")


def _is_cxx_source(name: str) -> bool:
    return name.endswith(_CXX_SUFFIXES) and "$" not in name


def _host_runtime(p: CMakePass, cmd: Command) -> list[tuple[str, str, str]]:
    """A HIP target's C and C++ sources compile as C/CXX, without the HIP
    platform macro: one that includes a HIP header fails (hip_runtime.h's
    "#error Must define exactly one of __HIP_PLATFORM_AMD__ or
    __HIP_PLATFORM_NVIDIA__").  nvcc's CUDA language gave them cudart's
    headers; hip::host gives them HIP's, with the platform."""
    target = cmd.words[0].text
    cxx = [w.value for w in cmd.words[1:] if w.kind is not ArgKind.BRACKET and (
        _is_cxx_source(w.value) or (w.value.startswith("${") and w.value.endswith("}")
                                    and w.value[2:-1] in p.cxx_variables))]
    if not cxx or p.host_linked.hold(target, p.block(cmd)) or "$" in target:
        return []
    p.host_linked.add(target, p.block(cmd))
    p.needs_hip = True
    p.host_uses.append(cmd.start)
    scope = " PRIVATE" if p.link_keywords.get(target, True) else ""
    shown = ", ".join(cxx[:3]) + (", ..." if len(cxx) > 3 else "")
    return [("HP615", f"{target}: its C/C++ sources ({shown}) compile as C/C++, without the "
             "HIP platform macro; hip::host gives them it (and HIP's include path)",
             f"target_link_libraries({target}{scope} hip::host)")]


def _legacy_library(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    if len(words) != 1:
        return
    lib = p.libs.by_link_name[N.LEGACY_LIBRARY_COMMANDS[cmd.lname]]
    p.use(lib, cmd.start)
    p.edit("HP607", f"{cmd.name} -> target_link_libraries(... {lib.target})", cmd.start,
           cmd.end, f"target_link_libraries({words[0].text} {lib.target})")


# -------------------------------------------------------------- variables --
def _set(p: CMakePass, cmd: Command) -> None:
    words = cmd.words
    if cmd.lname in ("string", "list"):
        if len(words) < 2 or words[0].value not in ("APPEND", "PREPEND", "INSERT"):
            return
        name, values = words[1], words[2:]
    else:
        if not words:
            return
        name, values = words[0], words[1:]
    var = name.value
    if cmd.lname == "set" and var in N.DEVICE_LINK:
        separable(p, cmd, var, values, [])
    elif cmd.lname == "set" and var in N.COMPILER_VARIABLES:
        p.report("HP653", f"{var}: CMake's HIP compiler is Clang (CMAKE_HIP_COMPILER), "
                 "never hipcc or nvcc; choose it by hand", cmd.start, cmd.end)
        p.claimed.append((cmd.start, cmd.end))
    elif cmd.lname == "set" and var == "CMAKE_CUDA_ARCHITECTURES":
        architectures(p, values)
    elif var.startswith(N.FLAG_VARIABLE_PREFIXES):
        if var.startswith("CUDA_NVCC_FLAGS"):
            p.report("HP653", f"{var} is FindCUDA's nvcc flag list; its flags were "
                     "translated, move them to target_compile_options or CMAKE_HIP_FLAGS",
                     name.start, name.end)
        flag_arguments(p, cmd, values, nvcc=True)
    elif var in p.flag_variables:
        flag_arguments(p, cmd, values, nvcc=p.flag_variables[var])
    elif is_arch_list(values):  # set(GENCODE -gencode=arch=compute_80,code=sm_80 ...)
        flag_arguments(p, cmd, values, nvcc=True)


def _aux_sources(p: CMakePass, cmd: Command) -> None:
    """aux_source_directory collects the sources of the enabled languages:
    with CUDA it took the folder's .cu files, with HIP (whose sources are
    .hip) it takes none.  They are added to the list, as HIP."""
    words = cmd.words
    if len(words) != 2 or not (p.language_converted or p.toolkit_finds):
        return
    folder, variable = words[0].value, words[1].value
    if "$<" in folder or not variable.isidentifier():
        return
    name = f"{variable}_HIPPORT_CU"
    ind = indent(p.text, cmd.start)
    lines = (f'\n{ind}file(GLOB {name} "{folder}/*.cu")'
             f"\n{ind}set_source_files_properties(${{{name}}} PROPERTIES LANGUAGE HIP)"
             f"\n{ind}list(APPEND {variable} ${{{name}}})")
    p.edit("HP606", f"{cmd.name}: the folder's .cu files added to {variable}, compiled as HIP "
           "(HIP's sources are .hip: the command no longer collects them)", cmd.end, cmd.end,
           lines)


def _hip_switch(p: CMakePass, cmd: Command) -> None:
    """``option(BUILD_HIP ...)`` that an ``if()`` of the file tests: the
    project's own HIP build, left as it is (HP623)."""
    words = cmd.words
    name = words[0].value if words else ""
    if not is_hip_macro(name) or not re.search(
            rf"(?im)^\s*(?:else)?if\s*\([^)]*\b{re.escape(name)}\b", p.text):
        return
    on = len(words) > 2 and words[2].value.upper() in ("ON", "TRUE", "YES", "1", "Y")
    said = (f"option({name}): the project's own HIP build, left as it is; ON by default, so "
            "the converted build takes the project's HIP branch as before (its CUDA branch "
            f"is converted too: -D{name}=OFF builds it with HIP)") if on else (
            f"option({name}): the project's own HIP build, left as it is; OFF by default, so "
            "the converted build compiles the converted CUDA branch with HIP "
            f"(-D{name}=ON builds the project's HIP branch instead)")
    p.report("HP623", said, cmd.start, cmd.end)


_HANDLERS = {
    "project": _languages,
    "option": _hip_switch,
    "enable_language": _languages,
    "check_language": _languages,
    "find_package": _find_package,
    "set": _set,
    "string": _set,
    "list": _set,
    "set_target_properties": properties,
    "set_property": properties,
    "set_source_files_properties": properties,
    "target_link_libraries": unknown_libraries,
    "aux_source_directory": _aux_sources,
    "add_custom_command": custom_command,
    "add_custom_target": custom_command,
    "link_libraries": unknown_libraries,
    **{name: _target for name in N.TARGET_COMMANDS},
    "cuda_include_directories": _target,
    **{name: _legacy_library for name in N.LEGACY_LIBRARY_COMMANDS},
}
