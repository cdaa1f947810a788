"""The compile flags a CMakeLists.txt gives its sources (``include_directories``,
``target_include_directories``, ``add_definitions``, ``add_compile_definitions``,
``target_compile_definitions``, ``CMAKE_{CXX,HIP}_STANDARD``), read without
running CMake: a value CMake must compute is left out, and so is a branch
the configure is known to skip (``conditions``)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hipport.buildfiles.cmake.conditions import Given, file_commands
from hipport.buildfiles.expand import CMAKE_REFERENCE, absolute, expand

_SCOPES = {"INTERFACE", "PUBLIC", "PRIVATE", "SYSTEM", "BEFORE", "AFTER"}


def cmake_flags(path: Path, top: Path, given: Given = ()) -> list[str]:
    """``given``: the user's ``-D NAME=VALUE``; the commands of branches the
    configure skips with them (``conditions``) give nothing."""
    try:
        stat = path.stat()
    except OSError:
        return []
    return list(_flags(path, top, stat.st_mtime_ns, stat.st_size, given))


@lru_cache(maxsize=256)  # a file is asked once per source below it
def _flags(path: Path, top: Path, mtime: int, size: int, given: Given) -> tuple[str, ...]:
    commands = file_commands(path, top, given)
    if commands is None:
        return ()
    folder = path.parent
    known = {"CMAKE_CURRENT_SOURCE_DIR": str(folder), "CMAKE_CURRENT_LIST_DIR": str(folder),
             "PROJECT_SOURCE_DIR": str(top), "CMAKE_SOURCE_DIR": str(top)}
    flags: list[str] = []
    for command in commands:
        values = [w.value for w in command.words]
        name = command.lname
        if name == "set" and len(values) >= 2:
            expanded = expand(" ".join(values[1:]), known, CMAKE_REFERENCE)
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
                    flags += ["-I", absolute(folder, directory)]
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
    return tuple(flags)


def _cmake_value(item: str, known: dict[str, str]) -> str | None:
    if item.startswith("$<BUILD_INTERFACE:") and item.endswith(">"):
        item = item[len("$<BUILD_INTERFACE:"):-1]
    if "$<" in item:
        return None
    return expand(item, known, CMAKE_REFERENCE) or None
