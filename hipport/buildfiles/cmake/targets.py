"""What a CMakeLists.txt builds, read without running CMake: its
``add_executable``/``add_library`` targets (and FindCUDA's and FindHIP's),
their sources and include directories, through ``set``, ``list(APPEND)``,
``file(GLOB)``, ``aux_source_directory``, ``include()``, ``add_subdirectory``
and the project's own functions and macros.

Conditions are not evaluated: every branch of an ``if`` counts (a file that
some configuration builds is built).  A source list that holds a value only
CMake computes (an unknown variable, a generator expression) makes its target
incomplete: ``hipport report`` then takes the folder as a whole."""
from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field
from pathlib import Path

from hipport.buildfiles.cmake.tokens import ArgKind, CMakeSyntaxError, Command, lex_cmake
from hipport.buildfiles.expand import read_text
from hipport.buildfiles.system import BuildTarget, BuildTargets

_REFERENCE = re.compile(r"\$\{([A-Za-z0-9_.+-]+)\}")
_UNKNOWN = "\0"  # marks a value CMake would compute
_MAX_DEPTH = 40  # nested includes, subdirectories and calls
_TARGET_COMMANDS = {"add_executable": 0, "add_library": 0, "cuda_add_executable": 0,
                    "cuda_add_library": 0, "hip_add_executable": 0, "hip_add_library": 0}
_TARGET_WORDS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC", "SHARED", "MODULE",
                 "OBJECT", "INTERFACE"}
_SKIPPED_TARGETS = {"IMPORTED", "ALIAS"}
_OPTIONS_START = {"OPTIONS", "CLANG_OPTIONS", "HIPCC_OPTIONS", "NVCC_OPTIONS"}
_SCOPES = {"INTERFACE", "PUBLIC", "PRIVATE", "SYSTEM", "BEFORE", "AFTER"}
_BLOCKS = {"function": "endfunction", "macro": "endmacro"}


@dataclass
class _Target:
    name: str
    build_file: Path
    folder: Path
    sources: list[Path] = field(default_factory=list)
    include_dirs: list[Path] = field(default_factory=list)
    complete: bool = True


@dataclass
class _Scope:
    variables: dict[str, str]
    include_dirs: list[Path]


@dataclass
class _Reader:
    targets: dict[str, _Target] = field(default_factory=dict)
    read: list[Path] = field(default_factory=list)
    functions: dict[str, tuple[list[str], list[Command], str]] = field(default_factory=dict)

    def file(self, path: Path, scope: _Scope, source_dir: Path, depth: int) -> None:
        text = read_text(path)
        if text is None or depth > _MAX_DEPTH:
            return
        try:
            commands = lex_cmake(text)
        except CMakeSyntaxError:
            return
        self.read.append(path)
        scope.variables["CMAKE_CURRENT_LIST_DIR"] = str(path.parent)
        scope.variables["CMAKE_CURRENT_LIST_FILE"] = str(path)
        self.run(commands, scope, source_dir, path, depth)

    def run(self, commands: list[Command], scope: _Scope, source_dir: Path, path: Path,
            depth: int) -> None:
        i = 0
        while i < len(commands):
            command = commands[i]
            name = command.lname
            if name in _BLOCKS:
                end = _block_end(commands, i, name, _BLOCKS[name])
                words = [w.value for w in command.words]
                if words:
                    self.functions[words[0].lower()] = (words[1:], commands[i + 1:end], name)
                i = end + 1
                continue
            self.command(command, scope, source_dir, path, depth)
            i += 1

    def command(self, command: Command, scope: _Scope, source_dir: Path, path: Path,
                depth: int) -> None:
        name = command.lname
        args = self.arguments(command, scope.variables)
        variables = scope.variables
        if name == "set" and args:
            values = args[1:]
            if "CACHE" in values:
                values = values[:values.index("CACHE")]
            if "PARENT_SCOPE" in values:
                values = values[:values.index("PARENT_SCOPE")]
            variables[args[0]] = ";".join(values)
        elif name == "unset" and args:
            variables.pop(args[0], None)
        elif name == "list" and len(args) >= 2 and args[0] in ("APPEND", "PREPEND"):
            old = [v for v in variables.get(args[1], "").split(";") if v]
            new = args[2:]
            variables[args[1]] = ";".join(old + new if args[0] == "APPEND" else new + old)
        elif name == "file" and len(args) >= 3 and args[0] in ("GLOB", "GLOB_RECURSE"):
            variables[args[1]] = ";".join(
                str(p) for p in _glob(args[2:], source_dir, args[0] == "GLOB_RECURSE"))
        elif name == "aux_source_directory" and len(args) >= 2:
            folder = _absolute(source_dir, args[0])
            found = sorted(p for p in folder.glob("*") if p.suffix.lower() in _AUX_SUFFIXES
                           and p.is_file()) if folder is not None else []
            old = [v for v in variables.get(args[1], "").split(";") if v]
            variables[args[1]] = ";".join(old + [str(p) for p in found])
        elif name == "project" and args:
            for key in ("PROJECT_SOURCE_DIR", f"{args[0]}_SOURCE_DIR"):
                variables[key] = str(source_dir)
            variables["PROJECT_NAME"] = args[0]
            variables.setdefault("CMAKE_PROJECT_NAME", args[0])
        elif name in _TARGET_COMMANDS and args:
            self.add_target(args, scope, source_dir, path, name)
        elif name == "target_sources" and args and args[0] in self.targets:
            self.add_sources(self.targets[args[0]], args[1:], source_dir)
        elif name == "include_directories":
            scope.include_dirs += _directories(args, source_dir)
        elif name == "target_include_directories" and args and args[0] in self.targets:
            self.targets[args[0]].include_dirs += _directories(args[1:], source_dir)
        elif name == "include" and args:
            self.include(args[0], scope, source_dir, depth)
        elif name == "add_subdirectory" and args:
            self.subdirectory(args[0], scope, source_dir, depth)
        elif name in self.functions:
            self.call(name, args, scope, source_dir, path, depth)

    def arguments(self, command: Command, variables: dict[str, str]) -> list[str]:
        """The command's arguments as CMake passes them: references expanded,
        unquoted ones split at ``;`` (a value CMake computes is kept as a
        marked word)."""
        out: list[str] = []
        for word in command.words:
            value = _expand(word.value, variables)
            if word.kind is ArgKind.UNQUOTED:
                out += [v for v in value.split(";") if v]
            else:
                out.append(value)
        return out

    def add_target(self, args: list[str], scope: _Scope, source_dir: Path, path: Path,
                   command: str) -> None:
        name, rest = args[0], args[1:]
        if any(w in _SKIPPED_TARGETS for w in rest[:2]):
            return
        # A name only CMake computes (add_executable(${APP} main.cu)) still
        # builds its sources; target_sources(${APP} ...) finds it by the same key.
        target = self.targets.setdefault(name, _Target(name.replace(_UNKNOWN, "?"), path,
                                                       source_dir))
        target.include_dirs += scope.include_dirs
        if command.startswith(("cuda_", "hip_")):
            rest = _before_options(rest)
        self.add_sources(target, [w for w in rest if w not in _TARGET_WORDS], source_dir)

    def add_sources(self, target: _Target, items: list[str], source_dir: Path) -> None:
        for item in items:
            if item in _SCOPES:
                continue
            if item.startswith("$<BUILD_INTERFACE:") and item.endswith(">"):
                item = item[len("$<BUILD_INTERFACE:"):-1]
            if _UNKNOWN in item or "$<" in item:
                target.complete = False
                continue
            path = _absolute(source_dir, item)
            if path is not None and path.is_file():
                target.sources.append(path)

    def include(self, name: str, scope: _Scope, source_dir: Path, depth: int) -> None:
        if _UNKNOWN in name:
            return
        path = _absolute(source_dir, name)
        if path is None or not path.is_file():  # a module of CMake's (GNUInstallDirs)
            return
        keep = {k: scope.variables.get(k) for k in ("CMAKE_CURRENT_LIST_DIR",
                                                      "CMAKE_CURRENT_LIST_FILE")}
        self.file(path, scope, source_dir, depth + 1)
        for key, value in keep.items():
            if value is not None:
                scope.variables[key] = value

    def subdirectory(self, name: str, scope: _Scope, source_dir: Path, depth: int) -> None:
        folder = _absolute(source_dir, name)
        if folder is None:
            return
        lists = folder / "CMakeLists.txt"
        if not lists.is_file():
            return
        child = _Scope(dict(scope.variables), list(scope.include_dirs))
        child.variables["CMAKE_CURRENT_SOURCE_DIR"] = str(folder)
        self.file(lists, child, folder, depth + 1)

    def call(self, name: str, args: list[str], scope: _Scope, source_dir: Path, path: Path,
             depth: int) -> None:
        params, body, kind = self.functions[name]
        if depth > _MAX_DEPTH:
            return
        bound = {p: args[k] if k < len(args) else "" for k, p in enumerate(params)}
        bound |= {f"ARGV{k}": a for k, a in enumerate(args)}
        bound |= {"ARGN": ";".join(args[len(params):]), "ARGV": ";".join(args),
                  "ARGC": str(len(args))}
        if kind == "macro":  # the caller's scope, its parameters replaced
            inner = _Scope(scope.variables, scope.include_dirs)
            saved = {k: inner.variables.get(k) for k in bound}
            inner.variables.update(bound)
            self.run(body, inner, source_dir, path, depth + 1)
            for key, value in saved.items():
                if value is None:
                    inner.variables.pop(key, None)
                else:
                    inner.variables[key] = value
            return
        inner = _Scope(dict(scope.variables) | bound, scope.include_dirs)
        self.run(body, inner, source_dir, path, depth + 1)


_AUX_SUFFIXES = {".c", ".cc", ".cpp", ".cxx", ".c++", ".cu", ".hip"}


def _block_end(commands: list[Command], start: int, opener: str, closer: str) -> int:
    depth = 0
    for k in range(start, len(commands)):
        name = commands[k].lname
        if name == opener:
            depth += 1
        elif name == closer:
            depth -= 1
            if depth == 0:
                return k
    return len(commands) - 1


def _expand(value: str, variables: dict[str, str]) -> str:
    for _ in range(20):
        if "${" not in value:
            return value
        value, n = _REFERENCE.subn(lambda m: variables.get(m[1], _UNKNOWN), value)
        if not n:
            return value
    return value


def _absolute(folder: Path, value: str) -> Path | None:
    if not value or _UNKNOWN in value or "$<" in value:
        return None
    path = Path(value)
    return path if path.is_absolute() else folder / path


def _directories(args: list[str], source_dir: Path) -> list[Path]:
    found = []
    for item in args:
        if item in _SCOPES:
            continue
        if item.startswith("$<BUILD_INTERFACE:") and item.endswith(">"):
            item = item[len("$<BUILD_INTERFACE:"):-1]
        path = _absolute(source_dir, item)
        if path is not None:
            found.append(path)
    return found


def _before_options(words: list[str]) -> list[str]:
    for k, word in enumerate(words):
        if word in _OPTIONS_START:
            return words[:k]
    return words


def _glob(args: list[str], source_dir: Path, recursive: bool) -> list[Path]:
    found: list[Path] = []
    skip = False
    for item in args:
        if skip:
            skip = False
            continue
        if item in ("RELATIVE", "LIST_DIRECTORIES"):  # how names are given, not which
            skip = True
            continue
        if item in ("CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS") or _UNKNOWN in item:
            continue
        folder, _, name = item.rpartition("/")
        prefix = folder if Path(item).is_absolute() else "/".join(
            p for p in (glob.escape(str(source_dir)), folder) if p)
        # GLOB_RECURSE matches the name's pattern in the folder and every one below.
        pattern = f"{prefix}/**/{name}" if recursive else f"{prefix}/{name}"
        found += sorted(Path(p) for p in glob.glob(pattern, recursive=recursive)
                        if Path(p).is_file())
    return found


def cmake_targets(path: Path, top: Path) -> BuildTargets | None:
    """The targets of the project whose CMakeLists.txt is ``path``; None when
    it cannot be read as CMake (then nothing can be said of its folder)."""
    text = read_text(path)
    try:
        lex_cmake(text or "")
    except CMakeSyntaxError:
        return None
    if text is None:
        return None
    folder = path.parent
    variables = {"CMAKE_SOURCE_DIR": str(folder), "CMAKE_CURRENT_SOURCE_DIR": str(folder),
                 "PROJECT_SOURCE_DIR": str(folder)}
    reader = _Reader()
    reader.file(path, _Scope(variables, []), folder, 0)
    targets = tuple(BuildTarget(t.name, t.build_file, tuple(dict.fromkeys(
        p.resolve() for p in t.sources)), tuple(dict.fromkeys(
            p.resolve() for p in t.include_dirs)), t.complete)
        for t in reader.targets.values())
    return BuildTargets(targets, tuple(dict.fromkeys(p.resolve() for p in reader.read)))
