"""What went wrong in a build, read from what its tools printed.

* CMake: ``CMake Error at FILE:LINE (command):``, the message indented
  below it, and the ``Call Stack (most recent call first):`` that leads
  there from the project's own files; ``CMake Error in FILE:`` and
  ``CMake Error: ...`` have no line.
* The compilers (hipcc's Clang, CMake's CXX compiler): ``file:line:col:
  error: ...`` with its include chain (``hipport.verify.diagnostics``).
* The linkers: lld's ``ld.lld: error: undefined symbol: X`` with its
  ``>>> referenced by FILE:LINE`` lines, GNU ld's ``undefined reference to
  `X'`` after ``OBJECT: in function `F':``, and ``cannot find -lX`` /
  ``unable to find library -lX``.
* make: ``*** [Makefile:9: target] Error 1`` (``hipport.buildfiles.makelog``),
  and what a recipe's shell said (``/bin/sh: 1: nvcc: not found``).

The result is in the order printed; each problem keeps the index of its
first line and the lines it was read from."""
from __future__ import annotations

import re
from dataclasses import dataclass
from threading import Event

from hipport.buildfiles.makelog import MakeFailure, make_failures, make_folders
from hipport.stopping import raise_if_stopped
from hipport.verify.diagnostics import CompilerError, errors

# A command name has no parentheses, a file name does not start with a
# space: either way, each pattern tries each place a line could split at
# once (``[^)]*`` and ``\s+.+?`` tried every split of a long line again).
_CMAKE = re.compile(r"^CMake (?P<kind>Error|Deprecation Error)(?: (?P<how>at|in) "
                    r"(?P<file>.+?)(?::(?P<line>\d+))?(?: \((?P<command>[^()]*)\))?)?:\s*"
                    r"(?P<rest>.*)$")
_FRAME = re.compile(r"^\s+(?P<file>\S.*?):(?P<line>\d+) \((?P<command>[^()]*)\)$")
_LLD = re.compile(r"^(?P<tool>(?:[\w./+-]*/)?ld\.lld(?:-\d+)?|lld): error: (?P<message>.+)$")
_REFERENCED = re.compile(r"^>>> referenced by (?P<name>\S+?)(?::(?P<line>\d+))?"
                         r"(?: \((?P<path>.+?)(?::(?P<pline>\d+))?\))?$")
_OBJECT = re.compile(r"^>>>\s+(?P<object>[^\s:()][^:()]*\.o(?:bj)?)(?::\((?P<function>.+)\))?$")
_GNU_LD = r"(?P<ld>(?:[\w./+-]*/)?(?:[\w-]*-)?ld(?:\.bfd|\.gold)?)"
_IN_FUNCTION = re.compile(r"^" + _GNU_LD + r": (?P<object>.+?): in function "
                          r"[`'](?P<function>.+)':$")
_UNDEFINED = re.compile(r"^(?:" + _GNU_LD + r": )?(?P<where>.+?):(?:(?P<line>\d+):)?"
                        r"(?:\((?P<section>[^)]*)\))?: undefined reference to "
                        r"[`'](?P<symbol>.+)'$")
_LD_MESSAGE = re.compile(r"^" + _GNU_LD + r": (?P<message>cannot find -l\S+.*|"
                         r"cannot find .+|.+: error adding symbols: .+)$")
_LINK_FAILED = re.compile(r"^(?:collect2: (?:fatal )?error: ld returned \d+ exit status|"
                          r"[\w./+-]*(?:clang\+\+|clang|g\+\+|c\+\+|gcc)(?:-\d+)?: error: "
                          r"linker command failed.*)$")
_SHELL = re.compile(r"^(?:/bin/)?(?:ba|da)?sh: (?:\d+: |line \d+: )?(?P<message>.+)$")
_MAKE_EXEC = re.compile(r"^[\w./+-]*make(?:\[\d+\])?: (?P<message>.+: (?:No such file or "
                        r"directory|Command not found|Permission denied))$")
_MISSING_LIBRARY = re.compile(r"(?:cannot find|unable to find library) (?P<flag>-l\S+?):?(?:\s|$)")


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    command: str


@dataclass(frozen=True)
class ConfigureError:
    """A ``CMake Error`` block."""

    index: int
    message: str  # its first sentence, on one line
    file: str | None  # as CMake named it (relative to the project, or absolute)
    line: int
    command: str
    stack: tuple[Frame, ...]  # most recent call first
    text: str  # the whole block


@dataclass(frozen=True)
class CompileError:
    index: int
    error: CompilerError
    folder: str | None  # where make ran the compiler (relative names are from there)
    text: str


@dataclass(frozen=True)
class LinkError:
    index: int
    message: str  # "undefined symbol: absent()", "cannot find -lfoo"
    symbol: str | None
    file: str | None  # the source that refers to the symbol, as the linker named it
    line: int  # 0: not said (no debug information)
    object: str | None  # the object file that refers to it
    library: str | None  # "-lfoo" the linker could not find
    folder: str | None
    text: str


@dataclass(frozen=True)
class LinkFailed:
    """``collect2: error: ld returned 1 exit status``: a link failed (the
    reason, when the linker said one, is a LinkError before it)."""

    index: int
    text: str


@dataclass(frozen=True)
class ShellError:
    """What a recipe's shell or make said of a command it could not run."""

    index: int
    message: str
    text: str


Problem = ConfigureError | CompileError | LinkError | LinkFailed | ShellError


@dataclass(frozen=True)
class BuildLog:
    problems: tuple[Problem, ...]
    failures: tuple[MakeFailure, ...]


def read_log(output: str, stop: Event | None = None) -> BuildLog:
    """The problems of a build's output, in one pass over its lines for
    each kind (a 400,000-line log takes seconds); ``stop``, once set, ends
    the reading (``Stopped``) at the next line."""
    lines = output.splitlines()
    folders = make_folders(lines, stop)
    problems: list[Problem] = []
    taken: set[int] = set()  # lines read as part of a problem
    i = 0
    while i < len(lines):
        raise_if_stopped(stop)
        line = lines[i]
        cmake = _CMAKE.match(line) if line.startswith("CMake ") else None
        if cmake:
            end = _block_end(lines, i + 1)
            problems.append(_configure_error(cmake, lines[i + 1:end], i, lines[i:end]))
            taken.update(range(i, end))
            i = end
            continue
        link = _link(lines, i, folders[i])
        if link is not None:
            problem, end = link
            problems.append(problem)
            taken.update(range(i, end))
            i = end
            continue
        shell = _needing("sh: ", _SHELL, line) or _needing("make", _MAKE_EXEC, line)
        if shell and "error:" not in line:
            problems.append(ShellError(i, shell["message"].strip(), line))
            taken.add(i)
        i += 1
    for index, error in errors(lines, stop):
        if index not in taken:
            problems.append(CompileError(index, error, folders[index],
                                         _compile_text(lines, index)))
    problems.sort(key=lambda p: p.index)
    return BuildLog(tuple(problems), tuple(make_failures(lines, folders, stop)))


def _needing(word: str, pattern: re.Pattern[str], line: str) -> re.Match[str] | None:
    """``pattern``'s match of a line, tried only when the line has a word
    every match has (most lines of a log have none: ``in`` costs a fraction
    of a failed match)."""
    return pattern.match(line) if word in line else None


def _block_end(lines: list[str], i: int) -> int:
    """The end of a CMake message: its lines are indented or blank."""
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")
                              or lines[i].startswith("Call Stack")):
        i += 1
    return i


def _configure_error(header: re.Match[str], body: list[str], index: int,
                     block: list[str]) -> ConfigureError:
    stack: list[Frame] = []
    message_lines: list[str] = [header["rest"]] if header["rest"] else []
    in_stack = False
    for line in body:
        if line.startswith("Call Stack"):
            in_stack = True
            continue
        frame = _FRAME.match(line)
        if in_stack and frame:
            stack.append(Frame(frame["file"], int(frame["line"]), frame["command"]))
        elif not in_stack:
            message_lines.append(line)
    return ConfigureError(index, _first_sentence(message_lines), header["file"],
                          int(header["line"] or 0), header["command"] or "", tuple(stack),
                          "\n".join(block).rstrip())


def _first_sentence(lines: list[str]) -> str:
    """CMake's message, paragraphs joined on one line until one ends a
    sentence (``The C++ compiler`` / ``"/usr/bin/c++"`` / ``is not able to
    compile a simple test program.``)."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    taken: list[str] = []
    for paragraph in paragraphs:
        taken.append(paragraph)
        if paragraph.endswith((".", "!")) or len(taken) == 3:
            break
    return " ".join(taken) or "CMake reported an error"


def _link(lines: list[str], i: int, folder: str | None) -> tuple[Problem, int] | None:
    line = lines[i]
    lld = _needing("error: ", _LLD, line)
    if lld:
        message = lld["message"].strip()
        end = i + 1
        name = path = obj = None
        number = 0
        while end < len(lines) and lines[end].startswith(">>>"):
            referenced = _REFERENCED.match(lines[end])
            located = _OBJECT.match(lines[end])
            if referenced and name is None:
                name = referenced["name"]
                path = referenced["path"] or name
                number = int(referenced["pline"] or referenced["line"] or 0)
            elif located and obj is None:
                obj = located["object"].strip()
            end += 1
        symbol = message.split(": ", 1)[1] if message.startswith("undefined symbol: ") else None
        library = _MISSING_LIBRARY.search(message)
        return LinkError(i, message, symbol, path, number, obj,
                         library["flag"] if library else None, folder,
                         "\n".join(lines[i:end])), end
    undefined = _needing("undefined reference to ", _UNDEFINED, line)
    if undefined and " " not in undefined["where"].strip():
        where = undefined["where"]
        obj = _function_object(lines, i)
        number = int(undefined["line"] or 0)
        symbol = undefined["symbol"]
        return LinkError(i, f"undefined reference to `{symbol}'", symbol, where, number, obj,
                         None, folder, line), i + 1
    message = _needing("cannot find ", _LD_MESSAGE, line) or _needing(
        "error adding symbols: ", _LD_MESSAGE, line)
    if message:
        library = _MISSING_LIBRARY.search(message["message"])
        return LinkError(i, message["message"].strip(), None, None, 0, None,
                         library["flag"] if library else None, folder, line), i + 1
    if _needing("error: ", _LINK_FAILED, line):
        return LinkFailed(i, line), i + 1
    return None


def _function_object(lines: list[str], i: int) -> str | None:
    """GNU ld names the object once, ``OBJECT: in function `F':``, before
    the references it makes."""
    for line in reversed(lines[max(0, i - 50):i]):
        found = _IN_FUNCTION.match(line)
        if found:
            return found["object"]
    return None


def _compile_text(lines: list[str], index: int) -> str:
    """The error's line and what follows it up to the next error (its notes,
    the source line), the include chain before it."""
    start = index
    while start > 0 and (lines[start - 1].startswith("In file included from")
                         or lines[start - 1].startswith("                 from ")):
        start -= 1
    end = index + 1
    while end < len(lines) and end - index < 30 and (lines[end].startswith(" ")
                                                     or ": note: " in lines[end]):
        end += 1
    return "\n".join(lines[start:end])
