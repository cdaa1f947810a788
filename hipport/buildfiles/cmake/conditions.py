"""The branches a configure takes, read without running CMake: ``if()``,
``elseif()``, ``else()`` and ``endif()`` evaluated with what the file and
the user say (``-D NAME=VALUE``, ``option()`` defaults, ``set(... CACHE)``
defaults, plain ``set()``).

A condition is true, false or unknown: a variable nobody sets here (the
environment's, a module's, a parent file's), a test of the file system
(``EXISTS``, ``TARGET``), a regular expression.  An unknown condition
takes its branch and the ones after it, as every command was read before
conditions were followed: a flag is only dropped where the configure is
known to skip it.

``gpu_switches`` names the conditions a HIP build hides behind
(``if(USE_HIP)`` around ``enable_language(HIP)``), with the ``-D`` that
turns each on, for a build that compiled no HIP source."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from hipport.buildfiles.cmake.tokens import ArgKind, Argument, CMakeSyntaxError, Command, lex_cmake
from hipport.buildfiles.expand import CMAKE_REFERENCE, expand, read_text
from hipport.buildfiles.project import Switch

Values = Mapping[str, str]
Given = tuple[tuple[str, str], ...]  # the user's -D NAME=VALUE, in order
_FALSE = frozenset({"", "0", "OFF", "NO", "FALSE", "N", "IGNORE", "NOTFOUND"})
_TRUE = frozenset({"1", "ON", "YES", "TRUE", "Y"})
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_NAME = re.compile(r"^[A-Za-z_][\w.+-]*$")
# Unary tests of what only the configure sees: unknown.
_UNARY = frozenset({"EXISTS", "COMMAND", "POLICY", "TARGET", "TEST", "IS_DIRECTORY",
                    "IS_SYMLINK", "IS_ABSOLUTE", "IS_READABLE", "IS_WRITABLE",
                    "IS_EXECUTABLE"})
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "EQUAL": operator.eq, "LESS": operator.lt, "GREATER": operator.gt,
    "LESS_EQUAL": operator.le, "GREATER_EQUAL": operator.ge}
_STRINGS = {f"STR{k}" if k != "EQUAL" else "STREQUAL": f for k, f in _COMPARE.items()}
_NUMBERS = _COMPARE
_UNKNOWN_BINARY = frozenset({"MATCHES", "VERSION_EQUAL", "VERSION_LESS", "VERSION_GREATER",
                             "VERSION_LESS_EQUAL", "VERSION_GREATER_EQUAL", "IN_LIST",
                             "IS_NEWER_THAN", "PATH_EQUAL"})
_GPU_LANGUAGES = frozenset({"HIP", "CUDA"})


def constant_truth(value: str) -> bool | None:
    """CMake's constants: True, False, or None for a word that is none."""
    upper = value.upper()
    if upper in _TRUE or (_NUMBER.match(value) and float(value) != 0):
        return True
    if upper in _FALSE or upper.endswith("-NOTFOUND") or (_NUMBER.match(value)):
        return False
    return None


def truth(value: str) -> bool:
    """A variable's value as ``if(VAR)`` reads it: true unless a false constant."""
    return constant_truth(value) is not False


@dataclass(frozen=True)
class _Word:
    value: str
    quoted: bool


class _Condition:
    """One ``if()`` condition, parsed as cmake-commands(7) says: parentheses
    first, then unary tests, binary tests, ``NOT``, ``AND``, ``OR``."""

    def __init__(self, words: list[_Word], values: Values) -> None:
        self.words = words
        self.values = values
        self.i = 0

    def result(self) -> bool | None:
        try:
            value = self._or()
        except IndexError:
            return None
        return value if self.i == len(self.words) else None

    def _peek(self, *keywords: str) -> bool:
        return self.i < len(self.words) and not self.words[self.i].quoted \
            and self.words[self.i].value in keywords

    def _or(self) -> bool | None:
        return self._chain("OR", self._and, True)

    def _and(self) -> bool | None:
        return self._chain("AND", self._not, False)

    def _chain(self, keyword: str, operand: Callable[[], bool | None],
               decisive: bool) -> bool | None:
        """``a OR b OR ...`` (``decisive`` True: one true operand decides,
        whatever the unknown ones are), ``a AND b ...`` (False)."""
        value = operand()
        while self._peek(keyword):
            self.i += 1
            other = operand()
            value = decisive if decisive in (value, other) else \
                None if None in (value, other) else not decisive
        return value

    def _not(self) -> bool | None:
        if self._peek("NOT"):
            self.i += 1
            value = self._not()
            return None if value is None else not value
        return self._test()

    def _test(self) -> bool | None:
        if self._peek("("):
            self.i += 1
            value = self._or()
            if not self._peek(")"):
                raise IndexError
            self.i += 1
            return value
        if self._peek("DEFINED"):
            name = self.words[self.i + 1].value
            self.i += 2
            return True if name in self.values else None
        if self._peek(*_UNARY):
            self.i += 2
            return None
        left = self.words[self.i]
        self.i += 1
        if self._peek(*_STRINGS, *_NUMBERS, *_UNKNOWN_BINARY):
            operator = self.words[self.i].value
            right = self.words[self.i + 1]
            self.i += 2
            return self._binary(left, operator, right)
        return self._alone(left)

    def _operand(self, word: _Word, left: bool) -> str | None:
        """A binary test's operand: a variable's value, else the word itself.
        None: the left one names a variable nobody here sets (the right one
        is a value: ``MODEL STREQUAL hip``)."""
        value = expand(word.value, dict(self.values), CMAKE_REFERENCE)
        if value is None or word.quoted or value != word.value:
            return value
        if value in self.values:
            return self.values[value]
        if left and _NAME.match(value) and constant_truth(value) is None:
            return None
        return value

    def _binary(self, left: _Word, operator: str, right: _Word) -> bool | None:
        a, b = self._operand(left, True), self._operand(right, False)
        if a is None or b is None or operator in _UNKNOWN_BINARY:
            return None
        if operator in _STRINGS:
            return _STRINGS[operator](a, b)
        try:
            return _NUMBERS[operator](float(a), float(b))
        except ValueError:
            return False

    def _alone(self, word: _Word) -> bool | None:
        """``if(<constant>)``, ``if(<variable>)``; a quoted string that is no
        constant is false."""
        value = expand(word.value, dict(self.values), CMAKE_REFERENCE)
        if value is None:
            return None
        constant = constant_truth(value)
        if constant is not None:
            return constant
        if word.quoted:
            return False
        return truth(self.values[value]) if value in self.values else None


def evaluate(arguments: Sequence[Argument], values: Values) -> bool | None:
    """An ``if()``'s condition: True, False, or None when it needs what only
    the configure knows."""
    words = [_Word("(" if a.kind is ArgKind.OPEN else ")" if a.kind is ArgKind.CLOSE
                   else a.value, a.kind in (ArgKind.QUOTED, ArgKind.BRACKET))
             for a in arguments]
    if not words:
        return False
    return _Condition(words, values).result()


@dataclass
class _Branch:
    taken: bool  # the commands of the current branch are read
    done: bool  # a branch of this if() was known true: the rest are skipped
    outer: bool  # the enclosing branch is read
    condition: str  # the branch's condition, as written, for gpu_switches ("": none)
    first: str = ""  # the if()'s own condition
    branches: int = 1


class Configure:
    """Follows a file's ``if()`` branches with the values known so far;
    ``option()`` and ``set(... CACHE ...)`` give a default unless the user
    gave the variable (``-D``), ``set()`` sets it."""

    def __init__(self, given: Values, known: dict[str, str] | None = None) -> None:
        self.given = {name.split(":")[0]: value for name, value in given.items()}  # NAME:BOOL
        self.values: dict[str, str] = dict(known or {}) | self.given
        self.stack: list[_Branch] = []
        # Inside a function() or macro() definition: run where it is called,
        # with values not known here, so its conditions are unknown and its
        # set() changes nothing yet.
        self.defining = 0

    @property
    def reading(self) -> bool:
        return not self.stack or self.stack[-1].taken

    def step(self, command: Command) -> bool:
        """Whether the configure runs ``command`` (or may: an unknown
        condition); a flow command itself is not run (False)."""
        name = command.lname
        text = " ".join(a.text for a in command.args)
        if name in ("function", "macro"):
            self.defining += 1
        elif name in ("endfunction", "endmacro"):
            self.defining = max(0, self.defining - 1)
        if name == "if":
            outer = self.reading
            value = (None if self.defining else evaluate(command.args, self.values)) \
                if outer else False
            self.stack.append(_Branch(outer and value is not False, value is True, outer, text,
                                      text))
            return False
        if name in ("elseif", "else") and self.stack:
            branch = self.stack[-1]
            value = True if name == "else" else None if self.defining else \
                evaluate(command.args, self.values) if branch.outer and not branch.done \
                else False
            branch.taken = branch.outer and not branch.done and value is not False
            branch.done = branch.done or value is True
            branch.branches += 1
            # else() of a lone if(): the opposite of its condition
            branch.condition = text if name == "elseif" else \
                f"NOT {branch.first}" if branch.branches == 2 and " " not in branch.first \
                else ""
            return False
        if name == "endif" and self.stack:
            self.stack.pop()
            return False
        if not self.reading:
            return False
        if not self.defining:
            self._remember(command)
        return True

    def _remember(self, command: Command) -> None:
        values = [w.value for w in command.words]
        name = command.lname
        if name == "option" and values:
            default = values[2] if len(values) > 2 else "OFF"
            self.values.setdefault(values[0], default)
        elif name == "set" and values:
            if "CACHE" in values:  # a default: the user's -D, or an earlier value, wins
                at = values.index("CACHE")
                value = expand(";".join(values[1:at]), self.values, CMAKE_REFERENCE)
                if value is not None and "FORCE" in values[at:]:
                    self.values[values[0]] = value
                elif value is not None:
                    self.values.setdefault(values[0], value)
            elif "PARENT_SCOPE" not in values:
                value = expand(";".join(values[1:]), self.values, CMAKE_REFERENCE)
                if value is None:
                    self.values.pop(values[0], None)
                else:
                    self.values[values[0]] = value
        elif name == "unset" and values:
            self.values.pop(values[0], None)


def taken(commands: Sequence[Command], given: Values,
          known: dict[str, str] | None = None) -> Iterator[Command]:
    """The commands the configure runs (or may run) in this order, flow
    commands left out; ``given``: the user's ``-D`` values."""
    configure = Configure(given, known)
    for command in commands:
        if configure.step(command):
            yield command


def gpu_switches(paths: Sequence[Path], given: Values) -> list[Switch]:
    """The ``if()`` conditions, in ``paths`` (CMake files, the top one
    first), around a command that builds GPU code (``enable_language(HIP)``,
    ``project(... HIP)``, a HIP or CUDA source, ``find_package(hip)``) and
    that the given values and the files' defaults make false.  None found
    (an unknown condition, no ``if()`` at all): the options and cache
    variables that speak of a GPU or a backend, each with its value
    (``default``), as places to look."""
    found: dict[tuple[Path, str], Switch] = {}
    options: list[Switch] = []
    known: dict[str, str] = {}
    for path in paths:
        text = read_text(path)
        commands = _lexed(text) if text is not None else None
        if text is None or commands is None:
            continue
        configure = Configure(given, known)
        lines: list[int] = []
        for command in commands:
            if command.lname == "if":
                lines.append(text.count("\n", 0, command.start) + 1)
            elif command.lname == "endif" and lines:
                lines.pop()
            outer = [b for b in configure.stack]
            option = _gpu_option(command)
            if option is not None and configure.reading:
                options.append(Switch(path, text.count("\n", 0, command.start) + 1, option,
                                      "", configure.values.get(option, "OFF")))
            if not configure.step(command) and command.lname not in ("if", "elseif", "else",
                                                                       "endif") \
                    and _builds_gpu_code(command, path.parent):
                for branch, line in zip(outer, lines):
                    if not branch.taken and branch.outer and branch.condition:
                        key = (path, branch.condition)
                        found.setdefault(key, Switch(path, line, branch.condition,
                                                     _turn_on(branch.condition,
                                                              configure.values)))
        known = configure.values
    return list(found.values()) or [
        replace(o, default=known.get(o.condition, o.default)) for o in options]


_GPU_WORDS = re.compile(r"hip|cuda|gpu|rocm|amd|device|backend|model|accelerat", re.IGNORECASE)


def _gpu_option(command: Command) -> str | None:
    """The variable an ``option()`` or ``set(... CACHE ...)`` declares, when
    its name or description speaks of a GPU or a backend (``USE_GPU``,
    ``MODEL "the backend: hip or serial"``)."""
    values = [w.value for w in command.words]
    if command.lname == "option" and values:
        described = " ".join(values[:2])
    elif command.lname == "set" and "CACHE" in values:
        at = values.index("CACHE")
        described = " ".join([values[0], *values[at + 2:at + 3]])
    else:
        return None
    return values[0] if _GPU_WORDS.search(described) else None


def _builds_gpu_code(command: Command, folder: Path) -> bool:
    """A command that brings GPU code into the build (``folder``: its file's)."""
    values = [w.value for w in command.words]
    upper = {v.upper() for v in values}
    name = command.lname
    if name in ("enable_language", "project"):
        return bool(upper & _GPU_LANGUAGES)
    if name == "find_package":
        return bool(values) and values[0].lower() in ("hip", "cuda", "cudatoolkit")
    if name in ("add_executable", "add_library", "target_sources", "hip_add_executable",
                "hip_add_library", "cuda_add_executable", "cuda_add_library"):
        return name.startswith(("hip_", "cuda_")) or \
            any(v.endswith((".hip", ".cu")) for v in values)
    if name in ("set_source_files_properties", "set_property"):
        return "LANGUAGE" in values and bool(upper & _GPU_LANGUAGES)
    if name == "add_subdirectory" and values and "$" not in values[0]:
        # if(USE_HIP) add_subdirectory(hip) endif(): a folder of GPU sources
        return any(p.suffix in (".hip", ".cu") for p in (folder / values[0]).rglob("*"))
    return False


_EQUALS = re.compile(r'^"?\$?\{?(?P<name>[A-Za-z_]\w*)\}?"?\s+STREQUAL\s+"?(?P<value>[^"\s]*)"?$')
_BARE = re.compile(r'^(?P<not>NOT\s+)?"?\$?\{?(?P<name>[A-Za-z_]\w*)\}?"?$')


def _turn_on(condition: str, values: Values) -> str:
    """The ``-D`` that makes a simple condition true: ``USE_HIP`` ->
    ``-DUSE_HIP=ON``, ``MODEL STREQUAL "hip"`` -> ``-DMODEL=hip``,
    ``NOT CPU_ONLY`` -> ``-DCPU_ONLY=OFF``; "" for anything else."""
    found = _EQUALS.match(condition)
    if found:
        return f"-D{found['name']}={found['value']}"
    found = _BARE.match(condition)
    if found and constant_truth(found["name"]) is None:
        return f"-D{found['name']}={'OFF' if found['not'] else 'ON'}"
    return ""


def read_commands(path: Path) -> list[Command] | None:
    text = read_text(path)
    return None if text is None else _lexed(text)


def _lexed(text: str) -> list[Command] | None:
    try:
        return lex_cmake(text)
    except CMakeSyntaxError:
        return None


@lru_cache(maxsize=64)
def _top_values(top: Path, given: Given, mtime: int) -> dict[str, str]:
    commands = read_commands(top / "CMakeLists.txt") or []
    configure = Configure(dict(given))
    for command in commands:
        configure.step(command)
    return configure.values


def file_commands(path: Path, top: Path, given: Given
                  ) -> list[Command] | None:
    """The commands of the CMake file ``path`` that the configure runs with
    the user's ``given`` values (``top``: the project's folder, whose
    CMakeLists.txt's options and cache defaults hold in the files below it);
    None when the file cannot be read as CMake."""
    commands = read_commands(path)
    if commands is None:
        return None
    known: dict[str, str] = {}
    if path.parent != top:
        try:
            mtime = (top / "CMakeLists.txt").stat().st_mtime_ns
        except OSError:
            mtime = 0
        known = dict(_top_values(top, given, mtime)) if mtime else {}
    return list(taken(commands, dict(given), known))
