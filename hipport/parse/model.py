"""What a front end reports about a source file: the interface every backend
(tree-sitter syntax mode, libclang semantic mode) fills in."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from hipport.edits import Edit
from hipport.findings import Finding
from hipport.parse.hip_branches import OwnHip

if TYPE_CHECKING:
    from hipport.table.names import CandidateNames

Span = tuple[int, int]


class Role(enum.Enum):
    CALL = "call"  # the callee of a call expression
    VALUE = "value"  # an identifier used as a value (enum constant, macro, function address)
    TYPE = "type"
    NAMESPACE = "namespace"  # `cub` in `cub::DeviceReduce`
    MACRO_BODY = "macro-body"  # a token inside a #define body
    PP_CONDITION = "pp-condition"  # an identifier in #if / #ifdef / #elif


@dataclass(frozen=True)
class Reference:
    name: str
    start: int
    end: int
    role: Role
    # For calls: the byte spans of the arguments (without separators).
    args: tuple[Span, ...] | None = None


@dataclass(frozen=True)
class Include:
    target: str  # e.g. "cuda_runtime.h"
    start: int  # span of the target text, between the delimiters
    end: int
    system: bool  # <...> rather than "..."
    line_start: int  # span of the whole directive line, terminator included
    line_end: int
    alone_on_line: bool  # nothing but the directive (and whitespace) on its line
    block: int  # id of the enclosing conditional block, for de-duplication
    # Inside an #if/#ifdef/#else (an include guard does not count): the
    # directive is not seen by every build of the file.
    conditional: bool = False


@dataclass(frozen=True)
class Launch:
    kernel: Span  # the kernel expression, e.g. `scale<float, 4>`
    kernel_is_template: bool
    config_open: Span  # `<<<` up to the first configuration argument
    config: tuple[Span, ...]
    config_close: Span  # end of the last configuration argument to just after `(`
    args: tuple[Span, ...]
    has_comments: bool  # a comment inside the rewritten punctuation spans


@dataclass
class Analysis:
    references: list[Reference] = field(default_factory=list)
    includes: list[Include] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    declared: set[str] = field(default_factory=set)  # CUDA-looking names the file declares
    # The project's own HIP branches (`#ifdef USE_HIP`), left as written: the
    # references there are not listed, and what they declare (`#define
    # cudaMalloc hipMalloc`) is not in ``declared`` but here.
    own_hip: OwnHip | None = None
    hip_declared: set[str] = field(default_factory=set)
    # Kernel syntax (__global__, __shared__, threadIdx, <<<>>>): such a file
    # relied on nvcc including cuda_runtime.h implicitly.
    device_syntax: bool = False
    # Where a new #include line can go (start of a line), if the file needs one.
    include_insertion: int | None = None
    # Arguments of macros that only stringify/paste them, found in #define bodies.
    spelling_spans: list[Span] = field(default_factory=list)
    error_count: int = 0
    first_error: int | None = None  # byte offset of the first parse error
    # The backend's own syntax tree (a tree_sitter.Tree for the syntax
    # backend), for rules that need more than references; None otherwise.
    tree: Any = None
    # Problems the front end itself reports (e.g. a semantic parse that fell
    # back to syntax mode); they join the file's findings.
    diagnostics: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class Edited:
    """The text being analysed is ``original`` with ``edits`` applied: a
    front end may reuse its analysis of the original (incremental parsing)."""

    original: bytes
    analysis: Analysis
    edits: tuple[Edit, ...]  # sorted, non-overlapping, on ``original``


class Backend(Protocol):
    """A front end: finds every CUDA reference in a file's bytes."""

    name: str

    def analyze(self, data: bytes, names: CandidateNames, path: Path | None = None,
                edited: Edited | None = None) -> Analysis:
        """References whose names ``names`` matches, plus includes and launches.
        ``path`` is where ``data`` was read from, when it came from a file
        (a semantic backend needs it to find compile flags and includes);
        ``edited`` says how ``data`` derives from an earlier analysed text."""
        ...

    def error_count(self, data: bytes) -> int:
        """Number of syntax errors in ``data`` (used to detect introduced errors)."""
        ...
