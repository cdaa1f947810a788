"""The state one pass over a CMake file shares between its rules, and the
layout helpers they use to insert and remove lines."""
from __future__ import annotations

from dataclasses import dataclass, field

from hipport.buildfiles.cmake.tokens import Command
from hipport.buildfiles.libraries import RocmLibrary
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.settings import Settings


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
    hip_sources: set[str] = field(default_factory=set)  # already LANGUAGE HIP
    cu_variables: dict[str, list[str]] = field(default_factory=dict)
    variable_values: dict[str, list[str]] = field(default_factory=dict)  # as set here
    # target (as written) -> "EXECUTABLE", a library type ("STATIC", "SHARED", ...)
    # or "" for add_library without one (static unless BUILD_SHARED_LIBS)
    target_kinds: dict[str, str] = field(default_factory=dict)
    # target -> whether this file's target_link_libraries for it use the
    # keyword signature (PRIVATE, PUBLIC, INTERFACE); absent: none here
    link_keywords: dict[str, bool] = field(default_factory=dict)
    host_linked: set[str] = field(default_factory=set)  # targets linking the HIP runtime
    cxx_variables: set[str] = field(default_factory=set)  # variables listing C/C++ sources
    # where a converted project()/enable_language() ends (find_package(hip) goes there)
    language_end: int | None = None
    needs_hip: bool = False  # a target gets hip::host: find_package(hip) is needed
    host_use: int | None = None  # the first target command that gets hip::host
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

    def is_claimed(self, start: int, end: int) -> bool:
        return any(s <= start and end <= e for s, e in self.claimed)

    def use(self, lib: RocmLibrary, at: int) -> None:
        self.libraries.setdefault(lib, at)
        self.uses.append((lib, at))

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
