"""The project's own HIP code in a partly ported file.

Projects that keep a HIP build beside the CUDA one select it with the HIP
platform macro (`#ifdef __HIP_PLATFORM_AMD__`, `__HIPCC__`) or a switch of
their own (`#if defined(BUILD_HIP)`, `#ifdef USE_HIP`, `#if USE_ROCM`), and
often define CUDA names for the HIP build there (`#define cudaMalloc
hipMalloc`, `using cudaStream_t = hipStream_t;`).  Such a branch is the
authors' HIP code: the conversion leaves it as written.  Its declarations
are not the file's own names either: the converted build need not define a
project switch, so the file's other code (the CUDA branch, the code both
share) must compile without them, and is converted.

A chain of branches (`#if ... #elif ... #else ... #endif`) with a HIP
branch keeps its directives as written, and so its branches reached only
under a CUDA compiler test (`#elif defined(__CUDACC__)`, `#ifdef __NVCC__`):
hipcc never takes them, and renaming the test (`__CUDACC__` -> `__HIPCC__`)
would make hipcc compile a second, converted copy instead of the authors'
HIP branch.  An `#else` after such a test is a HIP branch when it reads as
HIP code (a `hip/` include, a `hip*` name)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from hipport.parse.conditions import Node, blank, number, parse, tokenize

Span = tuple[int, int]

# A macro whose name has one of these words (between underscores) selects a
# HIP build: __HIP_PLATFORM_AMD__, __HIPCC__, USE_HIP, BUILD_HIP, USE_ROCM,
# GGML_USE_HIP, WITH_AMD_GPU.
_HIP_WORDS = frozenset({"HIP", "HIPCC", "ROCM", "HCC", "AMD", "AMDGPU", "AMDGCN"})
# What every HIP build defines (hipcc, hip::host's -D__HIP_PLATFORM_AMD__=1):
# a branch selected by one of them is taken without any switch.
PLATFORM_MACROS = frozenset({"__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__",
                             "__HIP__"})
# What hipport's renames write for `__CUDACC__` and `__CUDA_ARCH__`: a branch
# under one of them is the project's HIP code only where it reads as HIP code
# or a CUDA compiler branch is beside it (a tree converted before, with CUDA
# code added since, is converted again).
RENAMED_TO = frozenset({"__HIPCC__", "__HIP_DEVICE_COMPILE__"})
# Defined by nvcc alone (hipcc defines neither).
CUDA_COMPILER_MACROS = frozenset({"__CUDACC__", "__NVCC__"})
_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(ifdef|ifndef|if|elifdef|elifndef|elif|else|endif)\b",
                        re.M)
_HIP_TEXT = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]hip/|\bhip[A-Z]\w*|\b__HIP\w*",
                       re.M)
# A conditional directive that may select a HIP branch: the scan for them
# (which blanks comments and strings) runs only in a file that has one.
_HINT = re.compile(rb"^[ \t]*#[ \t]*(?:el)?if(?:n?def)?\b[^\n]*(?:HIP|ROCM|HCC|AMD|__CUDACC__|"
                   rb"__NVCC__)", re.M | re.I)


def is_hip_macro(name: str) -> bool:
    return any(word.upper() in _HIP_WORDS for word in name.split("_"))


def _is_cuda_compiler(name: str) -> bool:
    return name in CUDA_COMPILER_MACROS


@dataclass(frozen=True)
class HipBranch:
    directive: Span  # the line that opens the branch (`#ifdef USE_HIP`, `#else`)
    end: int  # where the branch ends: the start of its chain's next directive line
    switch: str  # the macro it is selected by ("" for an #else after a CUDA compiler test)
    opening: Span  # the line of its chain's `#if`
    cuda: str = ""  # the CUDA compiler macro a branch beside it (kept too) is selected by

    @property
    def by_platform(self) -> bool:
        """Every HIP build takes it (no switch of the project's to define)."""
        return self.switch in PLATFORM_MACROS or not self.switch


@dataclass(frozen=True)
class OwnHip:
    branches: tuple[HipBranch, ...]
    kept: tuple[Span, ...]  # left as written: HIP branches, their chains' CUDA branches, directives
    cuda_only: tuple[Span, ...] = ()  # those CUDA branches: code hipcc never compiles

    def keeps(self, start: int, end: int | None = None) -> bool:
        """Whether the text at ``start`` (a range up to ``end``; an insertion
        when ``end == start``) lies in code left as written.  An insertion
        at the start of a kept line goes before it."""
        end = start if end is None else end
        if end == start:
            return any(s < start < e for s, e in self.kept)
        return any(start < e and s < end for s, e in self.kept)

    def never_compiled(self, at: int) -> bool:
        """``at`` is in a branch beside a HIP branch that only nvcc takes."""
        return any(s <= at < e for s, e in self.cuda_only)

    def switched(self, at: int) -> bool:
        """``at`` is in a HIP branch only a build defining a project switch takes."""
        return any(b.directive[0] <= at < b.end and not b.by_platform for b in self.branches)


@dataclass
class _Branch:
    keyword: str
    line: Span  # the directive's line, from its start to after its newline
    condition: Node | None  # parsed `#if`/`#elif` condition (`#ifdef X` as defined(X))
    end: int = 0


def own_hip(data: bytes) -> OwnHip | None:
    """The file's own HIP branches, or None when it has none."""
    if _HINT.search(data) is None:
        return None
    code = blank(data)  # a directive in a comment or a string is not one
    branches: list[HipBranch] = []
    kept: list[Span] = []
    cuda_only: list[Span] = []
    for chain in _chains(code):
        hip = _hip_branches(code, chain)
        if not hip:
            continue
        cuda = ""
        for i, branch in enumerate(chain[:-1]):  # the last one is the #endif
            kept.append(branch.line)
            compiler = _implies(branch.condition, _is_cuda_compiler)
            cuda = cuda or compiler
            if i in hip or compiler:
                kept.append((branch.line[1], branch.end))
            if compiler and i not in hip:
                cuda_only.append((branch.line[1], branch.end))
        branches += [HipBranch(chain[i].line, chain[i].end, switch, chain[0].line, cuda)
                     for i, switch in hip.items()]
    if not branches:
        return None
    return OwnHip(tuple(sorted(branches, key=lambda b: b.directive)), tuple(sorted(kept)),
                  tuple(cuda_only))


def _chains(code: bytes) -> list[list[_Branch]]:
    """Each `#if ... #endif` chain's directives, in file order of their `#if`
    (unterminated chains are left out)."""
    done: list[tuple[int, list[_Branch]]] = []
    open_: list[list[_Branch]] = []
    for m in _DIRECTIVE.finditer(code):
        keyword = m.group(1).decode()
        line = (m.start(), _line_end(code, m.end()))
        # Only a condition naming a HIP macro or the CUDA compiler matters.
        hinted = _HINT.match(code, m.start()) is not None
        branch = _Branch(keyword, line,
                         _condition(code, keyword, m.end(), line[1]) if hinted else None)
        if keyword in ("if", "ifdef", "ifndef"):
            open_.append([branch])
        elif open_:
            chain = open_[-1]
            chain[-1].end = m.start()
            chain.append(branch)
            if keyword == "endif":
                done.append((chain[0].line[0], open_.pop()))
    return [chain for _, chain in sorted(done, key=lambda c: c[0])]


def _line_end(code: bytes, at: int) -> int:
    """After the newline ending the logical line at ``at`` (continuations
    followed)."""
    while True:
        nl = code.find(b"\n", at)
        if nl == -1:
            return len(code)
        last = nl - 2 if nl > 1 and code[nl - 1] == 0x0D else nl - 1
        if last >= 0 and code[last] == 0x5C:  # a backslash: the line continues
            at = nl + 1
            continue
        return nl + 1


def _condition(code: bytes, keyword: str, start: int, end: int) -> Node | None:
    if keyword in ("else", "endif"):
        return None
    tokens = tokenize(code, start, end)
    if not tokens:
        return None
    if keyword in ("ifdef", "ifndef", "elifdef", "elifndef"):
        name = tokens[0]
        if len(tokens) != 1 or name.kind != "ident":
            return None
        test = Node("defined", name.start, name.end, name.text)
        return test if keyword in ("ifdef", "elifdef") else Node("unary", name.start, name.end,
                                                                  "!", (test,))
    return parse(tokens)


def _hip_branches(code: bytes, chain: list[_Branch]) -> dict[int, str]:
    """Index -> switch of the chain's HIP branches: those reached only when a
    HIP macro is defined (by their own test or the negation of an earlier
    one), and an #else after CUDA compiler tests that reads as HIP code."""
    found: dict[int, str] = {}
    negated = ""  # a HIP switch an earlier branch tested negated: the rest need it
    beside_cuda = any(_implies(b.condition, _is_cuda_compiler) for b in chain[:-1])
    for i, branch in enumerate(chain[:-1]):
        switch = negated or _implies(branch.condition, is_hip_macro)
        if switch in RENAMED_TO and not beside_cuda \
                and not _HIP_TEXT.search(code, branch.line[1], branch.end):
            switch = ""  # hipport's own rename of a CUDA test, over CUDA code still
        if switch:
            found[i] = switch
        condition = branch.condition
        if condition is not None and condition.kind == "unary" and condition.text == "!":
            negated = negated or _implies(condition.children[0], is_hip_macro)
    last = chain[-2]
    if not found and last.keyword == "else" and len(chain) > 2 and all(
            _implies(b.condition, _is_cuda_compiler) for b in chain[:-2]) \
            and _HIP_TEXT.search(code, last.line[1], last.end):
        found[len(chain) - 2] = ""
    return found


def _implies(node: Node | None, wanted: Callable[[str], bool]) -> str:
    """The macro (one ``wanted`` accepts) that must be defined, and non-zero
    where tested for its value, for ``node`` to hold; "" if none."""
    if node is None:
        return ""
    if node.kind in ("defined", "ident"):
        return node.text if wanted(node.text) else ""
    if node.kind == "paren":
        return _implies(node.children[0], wanted)
    if node.kind != "binary":
        return ""
    left, right = node.children
    if node.text == "&&":
        return _implies(left, wanted) or _implies(right, wanted)
    if node.text == "||":
        first = _implies(left, wanted)
        return first if first and _implies(right, wanted) else ""
    if node.text in _COMPARISONS and left.kind == "ident" and right.kind == "num":
        # `#if USE_ROCM == 1`: an undefined macro is 0, for which it is false
        holds_undefined = _COMPARISONS[node.text](0, number(right.text))
        return "" if holds_undefined else _implies(left, wanted)
    return ""


_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
