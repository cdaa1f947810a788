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

from pathlib import Path

from hipport.buildfiles.expand import unique_flags
from hipport.buildfiles.project import Configuration
from hipport.buildfiles.system import BuildSystem, build_systems
from hipport.errors import UsageError


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


def tree_flags(source: Path, root: Path,
               configuration: Configuration = Configuration()) -> list[str]:
    """Flags the build files of ``source``'s folder and of every folder up to
    ``root`` give it, outermost first, configured with the user's values;
    ``-x LANGUAGE`` last when a build file compiles it (as C++ when any of
    them does: that compilation fails first)."""
    folders = [source.parent]
    while folders[-1] != root and root in folders[-1].parents:
        folders.append(folders[-1].parent)
    flags: list[str] = []
    languages: set[str] = set()
    for folder in reversed(folders):
        for system in build_systems().values():
            for path in build_files_in(system, folder):
                given, language = split_language(system.compile_flags(path, root, source,
                                                                       configuration))
                flags += given
                languages |= {language} if language else set()
    language = "c++" if "c++" in languages else next(iter(languages), None)
    return unique_flags(flags) + (["-x", language] if language else [])


def split_language(flags: list[str]) -> tuple[list[str], str | None]:
    """``flags`` without ``-x LANGUAGE`` (``-xLANGUAGE``), and the last language."""
    kept: list[str] = []
    language = None
    i = 0
    while i < len(flags):
        if flags[i] == "-x" and i + 1 < len(flags):
            language = flags[i + 1]
            i += 2
            continue
        if flags[i].startswith("-x") and len(flags[i]) > 2:
            language = flags[i][2:]
        else:
            kept.append(flags[i])
        i += 1
    return kept, language


def build_files_in(system: BuildSystem, folder: Path) -> list[Path]:
    try:
        return system.files_in(folder)
    except OSError as error:
        raise unreadable(folder, error) from None
