"""The compat header's text: a pure function of the names a tree uses.

Every mapping line names its catalogue entry (``/* FILE: NAME */``), lines
are grouped by library in catalogue order and sorted by name, so the same
names always give the same bytes.  Where the HIP spelling depends on the
ROCm release (the entry's ``rocm_version`` range and ``older`` mapping),
the alternatives sit under ``#if HIP_VERSION ...``."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from hipport.compat import GUARD, MARKER, amd_condition
from hipport.header_place import Forwarders
from hipport.polyfills import DEFAULT_TARGET as POLYFILL_TARGET
from hipport.polyfills import Exactness, section_lines, select
from hipport.polyfills import covered_names as polyfilled_names
from hipport.rules import rule_for
from hipport.rules.cuda_version import macro_values
from hipport.rules.shapes import (
    AppendArguments,
    CastArguments,
    DropArgument,
    FillEmptyCall,
    KeepArguments,
    OtherFunctionForArity,
    Shape,
    WrapArgument,
)
from hipport.settings import DEFAULT_CUDA_VERSION, SAFE_POLYFILLS
from hipport.table import MappingTable
from hipport.table.schema import LIBRARIES, Mapping, parse_version

RUNTIME = "hip/hip_runtime.h"
_TRACE = re.compile(r"/\* ([^*]+?): (\S+) \*/")


@dataclass
class Uses:
    """What the tree uses: catalogue entries, and names the catalogue lacks."""

    entries: dict[str, Mapping] = field(default_factory=dict)  # mapped
    # Names used but not mapped, and why (the finding's code name): unknown to
    # the catalogue, no HIP equivalent, a rename that needs review, ...
    left: dict[str, str] = field(default_factory=dict)
    # Tests of CUDA header include guards (`#ifdef CUBLAS_API_H_`, HP308): the
    # CUDA macro -> the macro its HIP header defines.  The header defines the
    # CUDA one whenever the HIP one is, so the test keeps its answer.
    guards: dict[str, str] = field(default_factory=dict)
    # CUDA version tests (`#if CUDART_VERSION >= 11020`, HP309) were seen: the
    # version macros are defined for the CUDA release assumed.
    version_tests: bool = False
    # `__launch_bounds__(threads, minBlocks)` (HP504) was seen: HIP's macro
    # is replaced by one that turns blocks per multiprocessor into waves.
    launch_bounds: bool = False
    # CUDA names with no HIP equivalent that the polyfill fallbacks emulate
    # (HP701-HP704): their fallbacks go into the header (docs/polyfills.md).
    polyfills: set[str] = field(default_factory=set)


def hip_version(release: str) -> int:
    """``"6.2"`` -> 60200000, as HIP_VERSION counts (major 10^7, minor 10^5)."""
    parts = parse_version(release) + (0, 0)
    return parts[0] * 10_000_000 + parts[1] * 100_000


def trace(entry: Mapping) -> str:
    where = entry.origin.rsplit(":", 1)[0] if entry.origin else "user rules"
    return f"/* {where}: {entry.cuda} */"


def covered_names(text: bytes) -> set[str]:
    """The CUDA names (and headers) a generated header maps."""
    return {m.group(2) for m in _TRACE.finditer(text.decode("utf-8", "replace"))}


MISSED = "/* The AMD build will miss (they stay in the ledger; port them by hand):"
_GUARD_TEST = re.compile(r"^#if defined\((\w+)\) && !defined\((\w+)\)\n"
                         r"#define \2  /\* guard: \2 \*/$", re.M)
_RENAME = re.compile(r"^#define (\w+) (\w+)  /\* ([^*]+?): \1 \*/$", re.M)
_MISSED_LINE = re.compile(r"^ \*   (\S+): (.*)$", re.M)
_CODE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")
_ANSWERS = {"version": "version_tests", "launch bounds": "launch_bounds"}


def read_uses(text: bytes, table: MappingTable) -> Uses:
    """What a generated header maps and lists, read back from its traces:
    ``render(read_uses(render(uses)))`` is ``render(uses)``.  A converted
    name the catalogue no longer knows (a hazard's rename, a user rule not
    loaded) is kept when it is a plain rename, listed as missed otherwise."""
    body, _, missed = text.decode("utf-8", "replace").partition(MISSED)
    uses = Uses()
    uses.guards = {cuda: hip for hip, cuda in _GUARD_TEST.findall(body)}
    uses.polyfills = polyfilled_names(text)
    renames = {m.group(1): m for m in _RENAME.finditer(body)}
    for origin, name in _TRACE.findall(body):
        if origin in _ANSWERS:
            setattr(uses, _ANSWERS[origin], True)
            continue
        if origin == "guard" or name in uses.entries or origin.startswith(POLYFILL_TRACE):
            continue
        entry = table.lookup(name)
        if entry is None and name in renames:
            entry = Mapping(name, renames[name].group(2), "macro", "runtime", origin=origin)
        if entry is not None:
            uses.entries[name] = entry
        else:
            uses.left[name] = f"mapped by {origin}, which this run did not load"
    for name, why in _MISSED_LINE.findall(missed):
        entry = None if _CODE_NAME.fullmatch(why) else table.lookup(name.strip("<>"))
        if entry is not None:
            uses.entries[entry.cuda] = entry
        else:
            uses.left[name] = why
    return uses


FORWARD = "/* forwards to the tree's compat header */"
_FORWARDERS = Forwarders(MARKER, FORWARD, "maps")
forwarder = _FORWARDERS.text
forwarded = _FORWARDERS.target


def merged(*parts: Uses) -> Uses:
    """The union of what several runs used (a later part's entry wins)."""
    out = Uses()
    for part in parts:
        out.entries.update(part.entries)
        out.left.update(part.left)
        out.guards.update(part.guards)
        out.version_tests = out.version_tests or part.version_tests
        out.launch_bounds = out.launch_bounds or part.launch_bounds
        out.polyfills |= part.polyfills
    out.left = {n: why for n, why in out.left.items()
                if n not in out.entries and n.strip("<>") not in out.entries
                and n not in out.guards and n.strip("<>") not in out.polyfills}
    return out


def definition(entry: Mapping) -> str | None:
    """The ``#define`` mapping ``entry`` (one alternative), or None when no
    macro can express it."""
    hip, cuda = entry.hip, entry.cuda
    if hip is None:
        return None
    rule = rule_for(entry)
    if rule is None:
        return None if hip == cuda else f"#define {cuda} {hip}"
    shape = rule.shape
    return None if shape is None else macro(shape, cuda, hip)


# The arity picker some macros use, defined once in a header that needs it.
PICK = "HIPPORT_ARG6_"
# How a polyfill fallback's first line starts (hipport.polyfills.render.trace).
POLYFILL_TRACE = "polyfill "
PICK_DEFINITION = f"#define {PICK}(a1, a2, a3, a4, a5, a6, ...) a6"
_BEFORE = ("first", "second", "third", "fourth")


@functools.singledispatch
def macro(shape: Shape, cuda: str, hip: str) -> str:
    """The function-like macro that does to every call what the argument
    rule of this ``shape`` does to one."""
    raise TypeError(f"no macro for {type(shape).__name__}")


@macro.register
def _(shape: DropArgument, cuda: str, hip: str) -> str:
    before = list(_BEFORE[:shape.index])
    params = ", ".join([*before, shape.name, "..."])
    return f"#define {cuda}({params}) {hip}({', '.join([*before, '__VA_ARGS__'])})"


@macro.register
def _(shape: WrapArgument, cuda: str, hip: str) -> str:
    before = list(_BEFORE[:shape.index])
    params = ", ".join([*before, shape.name, "..."])
    args = ", ".join([*before, f"{shape.wrapper}({shape.name})"])
    return f"#define {cuda}({params}) {hip}({args}, ##__VA_ARGS__)"


@macro.register
def _(shape: FillEmptyCall, cuda: str, hip: str) -> str:
    return f"#define {cuda}() {hip}({shape.argument})"


@macro.register
def _(shape: OtherFunctionForArity, cuda: str, hip: str) -> str:
    # Picked by the number of arguments (1 to 5): with c arguments the
    # sixth of `args..., n5, n4, n3, n2, n1,` is n<c>.
    names = ", ".join(shape.other if count == shape.arity else hip for count in range(5, 0, -1))
    return f"#define {cuda}(...) {PICK}(__VA_ARGS__, {names}, )(__VA_ARGS__)"


@macro.register
def _(shape: KeepArguments, cuda: str, hip: str) -> str:
    params = [f"a{i}" for i in range(shape.arity)]
    return f"#define {cuda}({', '.join(params)}) {hip}({', '.join(params[i] for i in shape.kept)})"


@macro.register
def _(shape: AppendArguments, cuda: str, hip: str) -> str:
    return f"#define {cuda}(...) {hip}(__VA_ARGS__, {', '.join(shape.arguments)})"


@macro.register
def _(shape: CastArguments, cuda: str, hip: str) -> str:
    """`#define cuda(a0, ...) hip((void**)(a0), ##__VA_ARGS__)`: every argument
    up to the last cast is named, the rest (when the arity varies) passed on,
    none when the last cast is the last argument (`##` drops the comma)."""
    casts = dict(shape.casts)
    named = shape.arity if shape.arity is not None else max(casts) + 1
    params = [f"a{i}" for i in range(named)]
    args = [f"({casts[i]})({p})" if i in casts else p for i, p in enumerate(params)]
    if shape.arity is None:
        params.append("...")
        return f"#define {cuda}({', '.join(params)}) {hip}({', '.join(args)}, ##__VA_ARGS__)"
    return f"#define {cuda}({', '.join(params)}) {hip}({', '.join(args)})"


def _alternatives(entry: Mapping) -> list[tuple[str, Mapping]]:
    """(condition, mapping) from the newest HIP spelling to the oldest; ""
    when a spelling holds for every release."""
    out: list[tuple[str, Mapping]] = []
    alt: Mapping | None = entry
    while alt is not None:
        tests = []
        if alt.rocm_added is not None:
            tests.append(f"HIP_VERSION >= {hip_version(alt.rocm_added)}")
        if alt.rocm_removed is not None:
            tests.append(f"HIP_VERSION < {hip_version(alt.rocm_removed)}")
        out.append((" && ".join(tests), alt))
        if not tests:
            break
        alt = alt.older
    return out


def _versioned(entry: Mapping, line_of: dict[int, str]) -> list[str]:
    """Lines for ``entry``: one, or an #if/#elif/#else chain."""
    alternatives = [(test, line_of[id(alt)]) for test, alt in _alternatives(entry)
                    if id(alt) in line_of]
    if len(alternatives) == 1 and not alternatives[0][0]:
        return [alternatives[0][1]]
    lines = []
    for i, (test, line) in enumerate(alternatives):
        lines.append(f"#if {test}" if i == 0 else f"#elif {test}" if test else "#else")
        lines.append(line)
    lines.append("#endif")
    return lines


def _mapping_lines(entry: Mapping) -> tuple[list[str], str | None]:
    """The lines mapping ``entry``, or why it cannot be mapped."""
    if not entry.status.converts or entry.hip is None:
        return [], f"no HIP equivalent ({entry.status.value})"
    line_of: dict[int, str] = {}
    for _, alt in _alternatives(entry):
        text = definition(alt)
        if text is not None:
            line_of[id(alt)] = f"{text}  {trace(entry)}"
    if not line_of:
        if entry.rule is not None and definition(entry) is None:
            return [], f"needs its arguments rewritten ({entry.rule})"
        return [], None  # the same name in HIP: nothing to map
    return _versioned(entry, line_of), None


def _include_line(entry: Mapping, alt: Mapping) -> str:
    # One header for every translation unit: a library that is not installed
    # must not break the ones that do not use it (they fail where they do),
    # and a C++-only header must not break the C ones.
    if alt.hip == RUNTIME:
        return f"{trace(entry)} /* -> <{RUNTIME}>, included above */"
    test = f"__has_include(<{alt.hip}>)"
    if alt.cxx_only:
        test = f"defined(__cplusplus) && {test}"
    return f"#if {test}\n#include <{alt.hip}>  {trace(entry)}\n#endif"


def _include_lines(entry: Mapping) -> list[str]:
    line_of = {id(alt): _include_line(entry, alt) for _, alt in _alternatives(entry) if alt.hip}
    if not line_of:
        return []
    return _versioned(entry, line_of)


def _helpers(body: list[str]) -> list[str]:
    if not any(f"{PICK}(" in line for line in body):
        return []
    return ["", "/* picks a HIP function by the number of arguments */", PICK_DEFINITION]


# CUDA's `__launch_bounds__(threads, minBlocks[, maxBlocksPerCluster])` asks
# for minBlocks resident blocks per multiprocessor; HIP's macro passes
# minBlocks on as amdgpu_waves_per_eu, a minimum of wavefronts per SIMD, and
# breaks on a third argument.  The replacement asks for the waves minBlocks
# blocks make on a 4-SIMD compute unit (rounded up, at least 1), counted in
# 64-lane wavefronts: on a wave32 GPU that asks for half of them, a weaker
# request, never a stronger one (`__AMDGCN_WAVEFRONT_SIZE` is deprecated).
_WAVES = "((((blocks) * (threads) + 255) / 256) > 0 ? (((blocks) * (threads) + 255) / 256) : 1)"
LAUNCH_BOUNDS = [
    "",
    "/* __launch_bounds__(threads, minBlocks): minimum blocks per multiprocessor become",
    " * waves per execution unit (HIP reads the number as waves; HP504) */",
    "#define HIPPORT_LAUNCH_BOUNDS_1_(threads) "
    "__attribute__((amdgpu_flat_work_group_size(1, threads)))",
    "#define HIPPORT_LAUNCH_BOUNDS_2_(threads, blocks) "
    "__attribute__((amdgpu_flat_work_group_size(1, threads), "
    f"amdgpu_waves_per_eu({_WAVES})))",
    "#define HIPPORT_LAUNCH_BOUNDS_3_(threads, blocks, cluster) "
    "HIPPORT_LAUNCH_BOUNDS_2_(threads, blocks)",
    "#undef __launch_bounds__",
    f"#define __launch_bounds__(...) {PICK}(__VA_ARGS__, , , HIPPORT_LAUNCH_BOUNDS_3_, "
    "HIPPORT_LAUNCH_BOUNDS_2_, HIPPORT_LAUNCH_BOUNDS_1_, )(__VA_ARGS__)  "
    "/* launch bounds: __launch_bounds__ */",
]


def _answers(uses: Uses, cuda_version: tuple[int, int]) -> list[str]:
    """Lines that keep the answers of the code's preprocessor tests about
    CUDA: which CUDA headers are included, which CUDA release this is."""
    lines: list[str] = []
    if uses.guards:
        lines += ["", "/* CUDA header include guards the code tests: defined when the HIP "
                  "header is */"]
        for cuda, hip in sorted(uses.guards.items()):
            lines += [f"#if defined({hip}) && !defined({cuda})",
                      f"#define {cuda}  /* guard: {cuda} */", "#endif"]
    if uses.version_tests:
        major, minor = cuda_version
        lines += ["", f"/* CUDA version tests: answered for CUDA {major}.{minor} "
                  "(--assume-cuda-version) */"]
        for cuda, value in macro_values(cuda_version).items():
            lines += [f"#ifndef {cuda}", f"#define {cuda} {value}  /* version: {cuda} */",
                      "#endif"]
    return lines


def render(uses: Uses, macro: str = "", name: str = "hip_compat.h",
           cuda_version: tuple[int, int] = DEFAULT_CUDA_VERSION,
           polyfill_target: str = POLYFILL_TARGET,
           polyfill_allowed: tuple[str, ...] = SAFE_POLYFILLS) -> bytes:
    headers = sorted((e for e in uses.entries.values() if e.kind == "header"),
                     key=lambda e: (e.hip or "", e.cuda))
    names = [e for e in uses.entries.values() if e.kind != "header"]
    order = {lib: i for i, lib in enumerate(LIBRARIES)}
    names.sort(key=lambda e: (order.get(e.library, len(order)), e.library, e.cuda))
    missed: list[str] = []
    body: list[str] = []
    seen_includes: set[str] = set()
    include_lines = [f"#include <{RUNTIME}>"]
    for entry in headers:
        if not entry.status.converts or entry.hip is None:
            missed.append(f" *   <{entry.cuda}>: no HIP header ({entry.origin.rsplit(':', 1)[0]})")
            continue
        lines = _include_lines(entry)
        if len(lines) == 1 and lines[0] in seen_includes:
            continue
        seen_includes.update(lines)
        include_lines += lines
    library = None
    answered = set(uses.guards) | (set(macro_values(cuda_version)) if uses.version_tests else set())
    for entry in names:
        if entry.cuda in answered:
            continue
        lines, why = _mapping_lines(entry)
        if why is not None:
            missed.append(f" *   {entry.cuda}: {why} ({entry.origin.rsplit(':', 1)[0]})")
            continue
        if not lines:
            continue
        if entry.library != library:
            library = entry.library
            body += ["", f"/* {library} */"]
        body += lines
    for left, why in sorted(uses.left.items()):
        if left not in answered:
            missed.append(f" *   {left}: {why}")
    bounds = LAUNCH_BOUNDS if uses.launch_bounds else []
    fallbacks = select(uses.polyfills, polyfill_target,
                       [Exactness(a) for a in polyfill_allowed])
    if fallbacks:
        body += ["", "/* polyfills: the CUDA APIs ROCm lacks, emulated (docs/polyfills.md) */",
                 *section_lines(fallbacks, nvidia=False)]
    out = [MARKER.decode() + ": do not edit.",
           f" * {name} maps the CUDA names this project uses to HIP for an AMD build;",
           " * re-run `hipport convert --strategy compat` when the code changes",
           " * (docs/single-source.md).  The NVIDIA build sees nothing below. */",
           f"#ifndef {GUARD}",
           f"#define {GUARD}",
           f"#if {amd_condition(macro)}",
           "", "/* headers */", *include_lines, *_answers(uses, cuda_version),
           *_helpers(bounds + body), *bounds, *body]
    if missed:
        out += ["", MISSED, *missed, " */"]
    out += ["", f"#endif /* {amd_condition(macro)} */", f"#endif /* {GUARD} */", ""]
    return "\n".join(out).encode()
