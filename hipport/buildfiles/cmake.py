"""CMake rules: CUDA language, variables, packages, targets and flags -> HIP.

Every edit is a byte span of one token (or an insertion after a command);
comments, quoting and layout are kept.  Specific command rules run first and
claim the spans they rewrite; the generic name pass skips claimed spans."""
from __future__ import annotations

from dataclasses import dataclass, field

from hipport.buildfiles import cmake_names as N
from hipport.buildfiles.cmake_tokens import ArgKind, Argument, Command
from hipport.buildfiles.flags import rewrite_flags
from hipport.buildfiles.libraries import (
    BY_LINK_NAME,
    BY_TARGET,
    PACKAGES,
    RocmLibrary,
    looks_like_cuda_library,
)
from hipport.buildfiles.options import BuildOptions
from hipport.buildfiles.words import Word, identifiers, removal, split_words
from hipport.edits import Edit, Fix
from hipport.findings import Finding


@dataclass
class _Pass:
    text: str
    options: BuildOptions
    findings: list[Finding] = field(default_factory=list)
    claimed: list[tuple[int, int]] = field(default_factory=list)
    libraries: dict[RocmLibrary, int] = field(default_factory=dict)  # -> first use offset
    language_converted: bool = False
    toolkit_finds: list[tuple[Command, bool]] = field(default_factory=list)  # (cmd, REQUIRED)
    found_packages: set[str] = field(default_factory=set)
    hip_sources: set[str] = field(default_factory=set)  # already LANGUAGE HIP
    cu_variables: dict[str, list[str]] = field(default_factory=dict)

    def edit(self, code: str, message: str, start: int, end: int, text: str,
             claim: bool = True) -> None:
        fix = Fix((Edit(start, end, text.encode("latin-1")),), title=message)
        self.findings.append(Finding(code, message, start, end, fix))
        if claim:
            self.claimed.append((start, end))

    def report(self, code: str, message: str, start: int, end: int) -> None:
        self.findings.append(Finding(code, message, start, end))

    def is_claimed(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in self.claimed)

    def use(self, lib: RocmLibrary, at: int) -> None:
        self.libraries.setdefault(lib, at)

    @property
    def offload_list(self) -> str:
        return '"' + ";".join(self.options.offload_arch) + '"'


def cmake_findings(text: str, commands: list[Command], options: BuildOptions) -> list[Finding]:
    p = _Pass(text, options)
    _survey(p, commands)
    for cmd in commands:
        handler = _HANDLERS.get(cmd.lname)
        if handler is not None:
            handler(p, cmd)
        elif cmd.lname in N.LEGACY_MANUAL:
            p.report("HP653", f"{cmd.name}: FindCUDA compilation step with no HIP "
                     "counterpart; port by hand", cmd.start, cmd.end)
        if cmd.lname in N.FLAG_COMMANDS:
            _flag_arguments(p, cmd, list(cmd.words[1:] if cmd.lname.startswith("target_")
                                         else cmd.words))
    for cmd in commands:
        _names(p, cmd)
    for cmd in commands:
        if cmd.lname == "cmake_minimum_required":
            _minimum_version(p, cmd)
    _insert_find_packages(p)
    return p.findings


def _survey(p: _Pass, commands: list[Command]) -> None:
    """What the file already has: packages found, sources marked HIP, and
    variables holding lists of .cu files."""
    for cmd in commands:
        words = cmd.words
        if cmd.lname == "find_package" and words:
            p.found_packages.add(words[0].value)
        elif cmd.lname == "set_source_files_properties":
            values = [w.value for w in words]
            if "LANGUAGE" in values and "HIP" in values:
                p.hip_sources.update(values[:values.index("PROPERTIES")]
                                     if "PROPERTIES" in values else [])
        elif cmd.lname in ("set", "list") and words:
            names = words[1:] if cmd.lname == "list" else words
            if cmd.lname == "list" and words[0].value not in ("APPEND", "PREPEND"):
                continue
            if names:
                cus = [w.value for w in names[1:] if w.value.endswith(".cu")]
                if cus:
                    p.cu_variables.setdefault(names[0].value, []).extend(cus)
        elif cmd.lname == "file" and len(words) > 2 and words[0].value in ("GLOB",
                                                                            "GLOB_RECURSE"):
            patterns = [w.value for w in words[2:] if w.value not in
                        ("CONFIGURE_DEPENDS", "LIST_DIRECTORIES", "RELATIVE", "FOLLOW_SYMLINKS")]
            if patterns and all(x.endswith(".cu") for x in patterns):
                p.cu_variables.setdefault(words[1].value, []).append(f"${{{words[1].value}}}")


# -------------------------------------------------------------- languages --
def _languages(p: _Pass, cmd: Command) -> None:
    args = cmd.words[1:] if cmd.lname == "project" else cmd.words
    for a in args:
        if a.kind is ArgKind.UNQUOTED and a.text == "CUDA":
            p.edit("HP601", f"{cmd.name}: CUDA language -> HIP", a.start, a.end, "HIP")
            p.language_converted = True


def _minimum_version(p: _Pass, cmd: Command) -> None:
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
def _find_package(p: _Pass, cmd: Command) -> None:
    words = cmd.words
    if not words or words[0].value not in PACKAGES:
        return
    name = words[0]
    package = PACKAGES[name.value]
    p.edit("HP604", f"find_package({name.value}) -> find_package({package})",
           name.start, name.end, package)
    if len(words) > 1 and words[1].value[:1].isdigit():
        version = words[1]
        p.edit("HP604", f"CUDA version {version.value} dropped from find_package "
               f"({package} has its own versions)", name.end, version.end, "")
    if package == "hip":
        p.toolkit_finds.append((cmd, any(w.value == "REQUIRED" for w in words)))
        p.found_packages.add("hip")


def _insert_find_packages(p: _Pass) -> None:
    needed: dict[str, int] = {}
    for lib, at in p.libraries.items():
        if lib.package and lib.package not in p.found_packages:
            needed.setdefault(lib.package, at)
    if not needed:
        return
    if not p.toolkit_finds:
        for package, at in needed.items():
            p.report("HP654", f"needs find_package({package}), but the CUDA toolkit is not "
                     "found in this file; add it where it is", at, at)
        return
    cmd, required = p.toolkit_finds[0]
    indent = _indent(p.text, cmd.start)
    suffix = " REQUIRED" if required else ""
    lines = "".join(f"\n{indent}find_package({pkg}{suffix})" for pkg in sorted(needed))
    p.edit("HP604", "find_package for the ROCm libraries used: " + ", ".join(sorted(needed)),
           cmd.end, cmd.end, lines)


# ---------------------------------------------------------------- targets --
def _target(p: _Pass, cmd: Command) -> None:
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
    sources: list[str] = []
    for w in words[1:]:
        if w.kind is ArgKind.BRACKET:
            continue
        if w.value.endswith(".cu") and "$" not in w.value:
            sources.append(w.text)
        elif w.value.startswith("${") and w.value.endswith("}"):
            sources.extend(p.cu_variables.get(w.value[2:-1], []))
    sources = [s for s in dict.fromkeys(sources) if s.strip('"') not in p.hip_sources]
    if not sources:
        return
    p.hip_sources.update(s.strip('"') for s in sources)
    line = (f"\n{_indent(p.text, cmd.start)}set_source_files_properties("
            f"{' '.join(sources)} PROPERTIES LANGUAGE HIP)")
    p.edit("HP606", f"{', '.join(sources)}: compiled as HIP", cmd.end, cmd.end, line)


def _legacy_library(p: _Pass, cmd: Command) -> None:
    words = cmd.words
    if len(words) != 1:
        return
    lib = BY_LINK_NAME[N.LEGACY_LIBRARY_COMMANDS[cmd.lname]]
    p.use(lib, cmd.start)
    p.edit("HP607", f"{cmd.name} -> target_link_libraries(... {lib.target})", cmd.start,
           cmd.end, f"target_link_libraries({words[0].text} {lib.target})")


# ------------------------------------------------------------- properties --
def _properties(p: _Pass, cmd: Command) -> None:
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
            if name.value in N.SEPARABLE | {"CUDA_RESOLVE_DEVICE_SYMBOLS"}:
                _separable(p, cmd, name.value, words[at + 2:], targets)
            elif name.value == "CUDA_ARCHITECTURES" and len(words) > at + 2:
                _architectures(p, words[at + 2:])
    elif cmd.lname == "set_source_files_properties":
        for a, b in zip(words, words[1:]):
            if a.value == "LANGUAGE" and b.value == "CUDA":
                p.edit("HP601", "source LANGUAGE CUDA -> HIP", b.value_start, b.value_end, "HIP")


def _property_pairs(p: _Pass, cmd: Command, targets: list[Argument],
                    pairs: list[Argument]) -> None:
    kept = 0
    dropped: list[int] = []
    after: list[str] = []
    for k in range(0, len(pairs) - 1, 2):
        key, value = pairs[k], pairs[k + 1]
        if key.value in N.SEPARABLE or key.value == "CUDA_RESOLVE_DEVICE_SYMBOLS":
            if key.value == "CUDA_RESOLVE_DEVICE_SYMBOLS" or value.value.upper() in \
                    N.FALSE_VALUES:
                dropped.append(k)
            elif value.value.upper() in N.TRUE_VALUES:
                dropped.append(k)
                after += [line for t in targets for line in _rdc_lines(t.text)]
            else:
                p.report("HP653", f"{key.value} {value.value}: set -fgpu-rdc by hand",
                         key.start, value.end)
                kept += 1
        elif key.value == "CUDA_ARCHITECTURES":
            _architectures(p, [value])
            kept += 1
        else:
            kept += 1
    if not dropped:
        return
    names = ", ".join(pairs[k].value for k in dropped)
    indent = _indent(p.text, cmd.start)
    tail = "".join(f"\n{indent}{line}" for line in after)
    message = f"{names}: HIP uses -fgpu-rdc" + (" (added)" if after else " (removed)")
    if kept == 0:
        replacement = tail.lstrip("\n").lstrip() if after else ""
        start, end = (cmd.start, cmd.end) if after else _line_span(p.text, cmd.start, cmd.end)
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


def _rdc_lines(target: str) -> list[str]:
    return [f"target_compile_options({target} PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)",
            f"target_link_options({target} PRIVATE $<$<LINK_LANGUAGE:HIP>:-fgpu-rdc>)"]


def _separable(p: _Pass, cmd: Command, name: str, values: list[Argument],
               targets: list[Argument]) -> None:
    value = values[0].value.upper() if values else ""
    if name.endswith("RESOLVE_DEVICE_SYMBOLS") or value in N.FALSE_VALUES:
        start, end = _line_span(p.text, cmd.start, cmd.end)
        p.edit("HP608", f"{name} {value}: no HIP meaning (removed)", start, end, "")
    elif value in N.TRUE_VALUES:
        if targets:
            lines = [line for t in targets for line in _rdc_lines(t.text)]
        else:
            lines = ["add_compile_options($<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)",
                     "add_link_options($<$<LINK_LANGUAGE:HIP>:-fgpu-rdc>)"]
        text = ("\n" + _indent(p.text, cmd.start)).join(lines)
        p.edit("HP608", f"{name} {value} -> -fgpu-rdc", cmd.start, cmd.end, text)
    else:
        p.report("HP653", f"{name} set from {values[0].text if values else 'nothing'}: "
                 "set -fgpu-rdc by hand", cmd.start, cmd.end)
        p.claimed.append((cmd.start, cmd.end))


def _architectures(p: _Pass, values: list[Argument]) -> None:
    stop = next((i for i, v in enumerate(values)
                 if v.value in ("CACHE", "PARENT_SCOPE", "FORCE")), len(values))
    values = values[:stop]
    if not values:
        return
    start, end = values[0].start, values[-1].end
    old = p.text[start:end]
    p.edit("HP603", f"CUDA architectures {old} -> {p.offload_list}", start, end,
           p.offload_list)


# -------------------------------------------------------------- variables --
def _set(p: _Pass, cmd: Command) -> None:
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
    if cmd.lname == "set" and var in N.SEPARABLE | {"CMAKE_CUDA_RESOLVE_DEVICE_SYMBOLS"}:
        _separable(p, cmd, var, values, [])
    elif cmd.lname == "set" and var in N.COMPILER_VARIABLES:
        p.report("HP653", f"{var}: CMake's HIP compiler is Clang (CMAKE_HIP_COMPILER), "
                 "never hipcc or nvcc; choose it by hand", cmd.start, cmd.end)
        p.claimed.append((cmd.start, cmd.end))
    elif cmd.lname == "set" and var == "CMAKE_CUDA_ARCHITECTURES":
        _architectures(p, values)
    elif var.startswith(N.FLAG_VARIABLE_PREFIXES):
        if var.startswith("CUDA_NVCC_FLAGS"):
            p.report("HP653", f"{var} is FindCUDA's nvcc flag list; its flags were "
                     "translated, move them to target_compile_options or CMAKE_HIP_FLAGS",
                     name.start, name.end)
        _flag_arguments(p, cmd, values, nvcc=True)


# ------------------------------------------------------------------ flags --
def _flag_arguments(p: _Pass, cmd: Command, args: list[Argument], nvcc: bool = False) -> None:
    """Run the nvcc flag rules over the flag lists found in ``args``."""
    plain: list[Word] = []

    def flush() -> None:
        if plain:
            _rewrite(p, list(plain), nvcc)
            plain.clear()

    i = 0
    while i < len(args):
        a = args[i]
        if a.kind is ArgKind.QUOTED:
            flush()
            _rewrite(p, list(split_words(p.text, a.value_start, a.value_end, " \t;", "({<")),
                     nvcc)
        elif a.kind is ArgKind.UNQUOTED and a.text.startswith("$<"):
            flush()
            i = _genex(p, args, i, nvcc)
            continue
        elif a.kind is ArgKind.UNQUOTED:
            lib_word = cmd.lname in N.LINK_COMMANDS and _link_item(p, a)
            if lib_word:
                flush()
            else:
                plain.extend(split_words(p.text, a.start, a.end, ";", "({<"))
        else:
            flush()
        i += 1
    flush()


def _genex(p: _Pass, args: list[Argument], i: int, nvcc: bool) -> int:
    """A generator expression starting at ``args[i]``, possibly continued over
    the following arguments (``$<$<COMPILE_LANGUAGE:CUDA>:-a -b>``); the flags
    of its body are rewritten.  Returns the index of the argument after it."""
    text, start, limit = p.text, args[i].start, args[-1].end
    depth, colon, pos = 0, -1, start
    while pos < limit:
        if text.startswith("$<", pos):
            depth += 1
            pos += 2
            continue
        if text[pos] == ">":
            depth -= 1
            if depth == 0:
                break
        elif text[pos] == ":" and depth == 1 and colon < 0:
            colon = pos
        pos += 1
    else:
        return i + 1  # unbalanced: leave it alone
    j = i
    while j + 1 < len(args) and args[j + 1].start < pos:
        j += 1
    if colon > 0:
        condition = text[start:colon]
        cuda = any(f"{key}CUDA" in condition for key in N.LANGUAGE_GENEXES)
        words = list(split_words(text, colon + 1, pos, " \t\r\n;", "({<"))
        _rewrite(p, words, nvcc or cuda)
    return j + 1


def _rewrite(p: _Pass, words: list[Word], nvcc: bool) -> None:
    if not words:
        return
    result = rewrite_flags(p.text, words, p.options.offload_arch, nvcc=nvcc)
    p.findings += result.findings
    p.claimed += result.claimed
    for lib in result.libraries:
        p.use(lib, words[0].start)


def _link_item(p: _Pass, a: Argument) -> bool:
    name = a.text
    if name in BY_LINK_NAME:
        lib = BY_LINK_NAME[name]
        p.use(lib, a.start)
        p.edit("HP605", f"library {name} -> {lib.target}", a.start, a.end, lib.target)
        return True
    return False


# ----------------------------------------------------------------- names --
def _names(p: _Pass, cmd: Command) -> None:
    in_property_command = cmd.lname in N.PROPERTY_COMMANDS
    for a in cmd.args:
        if a.kind not in (ArgKind.UNQUOTED, ArgKind.QUOTED):
            continue
        if in_property_command and a.value in N.PROPERTY_RENAMES and \
                not p.is_claimed(a.start, a.end):
            new = N.PROPERTY_RENAMES[a.value]
            p.edit("HP602", f"property {a.value} -> {new}", a.value_start, a.value_end, new)
            continue
        if in_property_command and a.value.startswith("CUDA_") and \
                a.value not in N.SEPARABLE and not p.is_claimed(a.start, a.end) and \
                a.value not in ("CUDA_RESOLVE_DEVICE_SYMBOLS",):
            p.report("HP651", f"property {a.value} has no HIP counterpart known to hipport",
                     a.start, a.end)
            continue
        _targets_in(p, a)
        for ident in identifiers(p.text, a.value_start, a.value_end):
            if not _may_rename(ident.text):
                continue  # most words: nothing _name would do
            # In quoted text a name is a variable only when referenced: "${X}".
            quoted_word = a.kind is ArgKind.QUOTED and p.text[ident.start - 2:ident.start] \
                != "${" and ident.text != "CUDA"
            if not p.is_claimed(ident.start, ident.end) and not quoted_word:
                _name(p, ident)


def _targets_in(p: _Pass, a: Argument) -> None:
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
            if name in BY_TARGET:
                lib = BY_TARGET[name]
                p.use(lib, s)
                p.edit("HP605", f"{name} -> {lib.target}", s, e, lib.target)
            elif name.startswith("CUDA::"):
                p.report("HP652", f"{name}: no ROCm counterpart known; left as it was", s, e)
                p.claimed.append((s, e))
        at = text.find("::", e, a.value_end)


_NAMES_HANDLED = frozenset({"CUDA", *N.VARIABLE_TARGETS, *N.VARIABLE_RENAMES,
                            *N.VARIABLES_REPORTED})


def _may_rename(name: str) -> bool:
    """Whether ``_name`` has anything to say about ``name``."""
    return name in _NAMES_HANDLED or name.startswith("CMAKE_CUDA_")


def _name(p: _Pass, ident: Word) -> None:
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
        elif name not in N.CMAKE_SPECIAL:
            p.report("HP651", f"{name}: no HIP counterpart known to hipport", ident.start,
                     ident.end)
        return
    wrapped = text[ident.start - 2:ident.start] == "${" and text[ident.end:ident.end + 1] == "}"
    if name in N.VARIABLE_TARGETS and wrapped:
        lib = BY_LINK_NAME[N.VARIABLE_TARGETS[name]]
        p.use(lib, ident.start)
        p.edit("HP607", f"${{{name}}} -> {lib.target}", ident.start - 2, ident.end + 1,
               lib.target)
    elif name in N.VARIABLE_RENAMES:
        new = N.VARIABLE_RENAMES[name]
        p.edit("HP607", f"{name} -> {new}", ident.start, ident.end, new)
    elif name in N.VARIABLES_REPORTED:
        p.report("HP651", f"{name}: CUDA toolkit variable with no HIP counterpart; review by "
                 "hand", ident.start, ident.end)


# ----------------------------------------------------------------- layout --
def _indent(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    prefix = text[line_start:offset]
    return prefix if prefix.strip() == "" else ""


def _line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The command's whole lines when nothing else shares them, else the command."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
        return line_start, line_end
    return start, end


def _unknown_library(p: _Pass, cmd: Command) -> None:
    for a in cmd.words[1:] if cmd.lname == "target_link_libraries" else cmd.words:
        if a.kind is ArgKind.UNQUOTED and looks_like_cuda_library(a.text) and \
                a.text not in BY_LINK_NAME and a.text.isidentifier() and a.text.islower():
            p.report("HP652", f"library {a.text}: no ROCm counterpart known; left as it was",
                     a.start, a.end)


def _link(p: _Pass, cmd: Command) -> None:
    _unknown_library(p, cmd)


_HANDLERS = {
    "project": _languages,
    "enable_language": _languages,
    "check_language": _languages,
    "find_package": _find_package,
    "set": _set,
    "string": _set,
    "list": _set,
    "set_target_properties": _properties,
    "set_property": _properties,
    "set_source_files_properties": _properties,
    "target_link_libraries": _link,
    "link_libraries": _link,
    **{name: _target for name in N.TARGET_COMMANDS},
    "cuda_include_directories": _target,
    **{name: _legacy_library for name in N.LEGACY_LIBRARY_COMMANDS},
}
