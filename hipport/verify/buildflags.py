"""Include paths, macros and the language standard a converted tree's build
files give its sources: CMakeLists.txt (``include_directories``,
``target_include_directories``, ``add_definitions``,
``add_compile_definitions``, ``target_compile_definitions``,
``CMAKE_{CXX,HIP}_STANDARD``) and Makefiles (``-I``, ``-isystem``, ``-D``,
``-U``, ``-std=`` in variables and recipes).

This reads build files, it does not run them: a value that needs CMake or
Make to compute (an unknown variable, ``$(shell ...)``, a generator
expression other than ``$<BUILD_INTERFACE:...>``) is left out.  The flags
of a build file apply to every source in its folder and below it, target
by target scoping is not followed."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from hipport.buildfiles.cmake_tokens import CMakeSyntaxError, lex_cmake
from hipport.buildfiles.make_tokens import LineKind, lex_make
from hipport.buildfiles.words import split_words
from hipport.errors import UsageError

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")
_CMAKE_REF = re.compile(r"\$\{(\w+)\}")
_MAKE_REF = re.compile(r"\$[({](\w+)[)}]")
_SCOPES = {"INTERFACE", "PUBLIC", "PRIVATE", "SYSTEM", "BEFORE", "AFTER"}
_PATH_FLAGS = ("-isystem", "-iquote", "-I")
_MAX_EXPANSIONS = 20


def is_file(path: Path) -> bool:
    """``path.is_file()``; a path this user may not look at (a folder of mode
    0000 on the way) is a usage error that names it: verify never passes over
    part of a tree in silence."""
    try:
        return path.is_file()
    except OSError as error:
        raise unreadable(path, error) from None


def unreadable(path: Path | str, error: OSError) -> UsageError:
    return UsageError(f"{path}: cannot be read ({error.strerror or error}), so the translation "
                      "units there cannot be verified")


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("latin-1")
    except OSError:
        return None


def _expand(value: str, known: dict[str, str], ref: re.Pattern[str]) -> str | None:
    """``value`` with every reference replaced; None when one is unknown."""
    for _ in range(_MAX_EXPANSIONS):
        if "$" not in value:
            return value
        missing = [m[1] for m in ref.finditer(value) if m[1] not in known]
        if missing or not ref.search(value):
            return None
        value = ref.sub(lambda m: known[m[1]], value)
    return None


def _absolute(folder: Path, value: str) -> str:
    return str(Path(value) if Path(value).is_absolute() else (folder / value).resolve())


def cmake_flags(path: Path, top: Path) -> list[str]:
    text = _read(path)
    if text is None:
        return []
    try:
        commands = lex_cmake(text)
    except CMakeSyntaxError:
        return []
    folder = path.parent
    known = {"CMAKE_CURRENT_SOURCE_DIR": str(folder), "CMAKE_CURRENT_LIST_DIR": str(folder),
             "PROJECT_SOURCE_DIR": str(top), "CMAKE_SOURCE_DIR": str(top)}
    flags: list[str] = []
    for command in commands:
        values = [w.value for w in command.words]
        name = command.lname
        if name == "set" and len(values) >= 2:
            expanded = _expand(" ".join(values[1:]), known, _CMAKE_REF)
            if expanded is not None:
                known[values[0]] = expanded
            if values[0] in ("CMAKE_CXX_STANDARD", "CMAKE_HIP_STANDARD") and \
                    values[1].isdigit():
                flags = [f for f in flags if not f.startswith("-std=")] + [f"-std=c++{values[1]}"]
        elif name in ("include_directories", "target_include_directories"):
            items = values[1:] if name.startswith("target_") else values
            for item in items:
                if item in _SCOPES:
                    continue
                directory = _cmake_value(item, known)
                if directory:
                    flags += ["-I", _absolute(folder, directory)]
        elif name == "add_definitions":
            for item in values:
                if item.startswith(("-D", "-U")) and len(item) > 2:
                    value = _cmake_value(item, known)
                    if value:
                        flags.append(value)
        elif name in ("add_compile_definitions", "target_compile_definitions"):
            items = values[1:] if name.startswith("target_") else values
            for item in items:
                value = _cmake_value(item, known) if item not in _SCOPES else None
                if value:
                    flags.append(value if value.startswith("-D") else f"-D{value}")
    return flags


def _cmake_value(item: str, known: dict[str, str]) -> str | None:
    if item.startswith("$<BUILD_INTERFACE:") and item.endswith(">"):
        item = item[len("$<BUILD_INTERFACE:"):-1]
    if "$<" in item:
        return None
    return _expand(item, known, _CMAKE_REF) or None


def make_flags(path: Path) -> list[str]:
    text = _read(path)
    if text is None:
        return []
    folder = path.parent
    lines = lex_make(text)
    known: dict[str, str] = {"CURDIR": str(folder)}
    for line in lines:
        if line.kind is LineKind.ASSIGNMENT and line.name is not None:
            value = text[line.value_start:line.content_end].replace("\\\n", " ").strip()
            name = line.name.text
            if line.operator == "+=" and name in known:
                known[name] = f"{known[name]} {value}"
            elif line.operator != "?=" or name not in known:
                known[name] = value
    flags: list[str] = []
    for line in lines:
        if line.kind not in (LineKind.ASSIGNMENT, LineKind.RECIPE):
            continue
        words = [w.text for w in split_words(text, line.value_start, line.content_end)]
        flags += _make_words(words, known, folder)
    return _unique(flags)


def _make_words(words: list[str], known: dict[str, str], folder: Path) -> list[str]:
    flags: list[str] = []
    i = 0
    while i < len(words):
        word = _shell_word(words[i], known)
        flag = next((f for f in _PATH_FLAGS if word and word.startswith(f)), None)
        if word is not None and flag is not None:
            value: str | None = word[len(flag):]
            if not value and i + 1 < len(words):
                i += 1
                value = _shell_word(words[i], known)
            if value:
                flags += [flag, _absolute(folder, value)]
        elif word is not None and word.startswith(("-D", "-U", "-std=")) and len(word) > 2:
            flags.append(word)
        i += 1
    return flags


def _shell_word(word: str, known: dict[str, str]) -> str | None:
    """A recipe word as the shell hands it to the compiler (references
    expanded, quotes removed: ``-DDIR='"$(DIR)"'`` -> ``-DDIR="inc"``);
    None when it is not one known word."""
    expanded = _expand(word, known, _MAKE_REF)
    if expanded is None:
        return None
    try:
        parts = shlex.split(expanded)
    except ValueError:
        return None
    return parts[0] if len(parts) == 1 else None


def _unique(flags: list[str]) -> list[str]:
    """Each flag (with its value) once, in first-seen order."""
    seen: set[tuple[str, ...]] = set()
    out: list[str] = []
    i = 0
    while i < len(flags):
        group = tuple(flags[i:i + 2]) if flags[i] in _PATH_FLAGS else (flags[i],)
        i += len(group)
        if group not in seen:
            seen.add(group)
            out += group
    return out


def tree_flags(source: Path, root: Path) -> list[str]:
    """Flags the build files of ``source``'s folder and of every folder up to
    ``root`` give it, outermost first."""
    folders = [source.parent]
    while folders[-1] != root and root in folders[-1].parents:
        folders.append(folders[-1].parent)
    top = next((f for f in reversed(folders) if is_file(f / "CMakeLists.txt")), root)
    flags: list[str] = []
    for folder in reversed(folders):
        cmake = folder / "CMakeLists.txt"
        if is_file(cmake):
            flags += cmake_flags(cmake, top)
        for name in MAKEFILE_NAMES:
            if is_file(folder / name):
                flags += make_flags(folder / name)
                break
    return _unique(flags)
