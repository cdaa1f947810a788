"""The state one pass over a CMake file shares between its rules, and the
layout helpers they use to insert and remove lines."""
from __future__ import annotations

from dataclasses import dataclass, field

from hipport.buildfiles.cmake.tokens import Command
from hipport.buildfiles.libraries import BuildLibraries, RocmLibrary, build_libraries
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.settings import Settings

# (opening command, branch) of each block enclosing a command: if(), function()...
Block = tuple[tuple[int, int], ...]

_OPENERS = {"if": "endif", "foreach": "endforeach", "while": "endwhile",
            "function": "endfunction", "macro": "endmacro", "block": "endblock"}
_CLOSERS = frozenset(_OPENERS.values())
_BRANCHES = frozenset({"elseif", "else"})


def block_paths(commands: list[Command]) -> list[Block]:
    paths: list[Block] = []
    stack: list[tuple[int, int]] = []
    for i, cmd in enumerate(commands):
        name = cmd.lname
        if name in _BRANCHES and stack:
            stack[-1] = (stack[-1][0], stack[-1][1] + 1)
        elif name in _CLOSERS and stack:
            stack.pop()
        paths.append(tuple(stack))
        if name in _OPENERS:
            stack.append((i, 0))
    return paths


@dataclass
class Marks:
    """Names marked by some command (sources set LANGUAGE HIP, targets
    linking the HIP runtime), with the block of each marking: one made in a
    branch of an if() holds in that branch and the blocks inside it, not in
    another branch or around it (a hand-ported file's `if(BUILD_HIP)` marks
    its sources HIP; the converted default branch must mark them too)."""

    found: dict[str, list[Block]] = field(default_factory=dict)

    def add(self, name: str, block: Block) -> None:
        self.found.setdefault(name, []).append(block)

    def hold(self, name: str, block: Block) -> bool:
        return any(block[:len(b)] == b for b in self.found.get(name, ()))


@dataclass
class CMakePass:
    text: str
    options: Settings
    findings: list[Finding] = field(default_factory=list)
    claimed: list[tuple[int, int]] = field(default_factory=list)
    libraries: dict[RocmLibrary, int] = field(default_factory=dict)  # -> first use offset
    uses: list[tuple[RocmLibrary, int]] = field(default_factory=list)  # every use
    language_converted: bool = False
    toolkit_finds: list[tuple[Command, bool]] = field(default_factory=list)  # (cmd, REQUIRED)
    hip_sources: Marks = field(default_factory=Marks)  # already LANGUAGE HIP
    cu_variables: dict[str, list[str]] = field(default_factory=dict)
    variable_values: dict[str, list[str]] = field(default_factory=dict)  # as set here
    # target (as written) -> "EXECUTABLE", a library type ("STATIC", "SHARED", ...)
    # or "" for add_library without one (static unless BUILD_SHARED_LIBS)
    target_kinds: dict[str, str] = field(default_factory=dict)
    # target -> whether this file's target_link_libraries for it use the
    # keyword signature (PRIVATE, PUBLIC, INTERFACE); absent: none here
    link_keywords: dict[str, bool] = field(default_factory=dict)
    host_linked: Marks = field(default_factory=Marks)  # targets linking the HIP runtime
    blocks: dict[int, Block] = field(default_factory=dict)  # command start -> its block
    cxx_variables: set[str] = field(default_factory=set)  # variables listing C/C++ sources
    # where a converted project()/enable_language() ends (find_package(hip) goes there)
    language_end: int | None = None
    needs_hip: bool = False  # a target gets hip::host: find_package(hip) is needed
    # where target commands get hip::host: each needs a find_package(hip) CMake runs first
    # (a use in one if() branch is not covered by one in another)
    host_uses: list[int] = field(default_factory=list)
    # the project's own variables that hold flags -> whether they are nvcc's
    flag_variables: dict[str, bool] = field(default_factory=dict)
    # (start, end, variable) of loops over the GPU list (cmake.code_objects)
    arch_loops: list[tuple[int, int, str]] = field(default_factory=list)

    def edit(self, code: str, message: str, start: int, end: int, text: str,
             claim: bool = True) -> None:
        fix = Fix((Edit(start, end, text.encode("latin-1")),), title=message)
        self.findings.append(Finding(code, message, start, end, fix))
        if claim:
            self.claimed.append((start, end))

    def report(self, code: str, message: str, start: int, end: int) -> None:
        self.findings.append(Finding(code, message, start, end))

    def block(self, cmd: Command) -> Block:
        return self.blocks.get(cmd.start, ())

    def is_claimed(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in self.claimed)

    def use(self, lib: RocmLibrary, at: int) -> None:
        self.libraries.setdefault(lib, at)
        self.uses.append((lib, at))

    @property
    def libs(self) -> BuildLibraries:
        """CUDA's libraries as build files name them, for the run's mode (--roc)."""
        return build_libraries(self.options.roc)

    @property
    def offload_list(self) -> str:
        return '"' + ";".join(self.options.offload_arch) + '"'


def indent(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    prefix = text[line_start:offset]
    return prefix if prefix.strip() == "" else ""


def line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The command's whole lines when nothing else shares them, else the command."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    if text[line_start:start].strip() == "" and text[end:line_end].strip() == "":
        return line_start, line_end
    return start, end
