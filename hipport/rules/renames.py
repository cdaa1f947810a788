"""Table-driven renames: every CUDA reference the front end found."""
from __future__ import annotations

import functools
from bisect import bisect_right
from dataclasses import replace
from itertools import accumulate
from typing import Iterator

from hipport.codes import LIBRARY_CODES
from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding
from hipport.parse.conditions import Directive, blank, conditional_directives
from hipport.parse.model import Reference, Role
from hipport.rules import Context, RuleRole, file_rule, rule_for
from hipport.rules.case_labels import removed_spans
from hipport.rules.cuda_arch import ARCH
from hipport.rules.cuda_arch import resolve as resolve_arch_tests
from hipport.rules.cuda_version import VERSION_MACROS
from hipport.rules.cuda_version import resolve as resolve_version_tests
from hipport.rules.emulation import EMULATION_CODES, emulated
from hipport.table.roc import counterpart
from hipport.table.schema import Mapping, Status
from hipport.table.versions import (
    Availability,
    Release,
    deprecation_reason,
    for_target,
    note_for_target,
    unavailable_reason,
)


@file_rule("renames", codes=(*LIBRARY_CODES.values(), "HP200", "HP218", "HP411", "HP900", "HP901",
                              "HP902", "HP903", "HP904", "HP905", "HP906", *EMULATION_CODES),
           role=RuleRole.REWRITE)
def rename_references(ctx: Context) -> Iterator[Finding]:
    # What argument rules and removed `case` labels delete goes with them.
    deleted = _Spans(_deleted_arguments(ctx) + removed_spans(ctx))
    # Version tests in #if conditions are the cuda-version rule's.
    versions = [(r.start, r.end) for r in resolve_version_tests(ctx)]
    # ... and architecture thresholds the cuda-arch rule's.
    thresholds = [(e.start, e.end) for r in resolve_arch_tests(ctx) for e in r.edits]
    for ref in ctx.analysis.references:
        if deleted.cover(ref.start, ref.end):
            continue  # e.g. `__activemask()` as the mask a warp `_sync` call drops
        if ref.name in VERSION_MACROS and any(s <= ref.start < e for s, e in versions):
            continue
        if ref.name == ARCH and any(s <= ref.start < e for s, e in thresholds):
            continue
        entry = ctx.table.lookup(ref.name)
        if ref.name in ctx.table.guards and (entry is None or ref.role is Role.PP_CONDITION):
            continue  # an include guard: tests of it are the header-guards rule's
        if entry is None:
            yield Finding("HP900", f"`{ref.name}` looks like a CUDA API but is not in the "
                          "catalogue; left unchanged", ref.start, ref.end, cuda_name=ref.name)
        elif entry.kind == "header" or not _role_fits(entry, ref):
            continue  # e.g. a namespace name used as a variable: not this entry
        else:
            yield from _convert(ctx, ref, entry)


def _role_fits(entry: Mapping, ref: Reference) -> bool:
    """A namespace entry is renamed where the name is used as a scope; a
    scope may also be a CUDA enum or class (`cudaMemcpyKind::cudaMemcpyHostToDevice`)."""
    if ref.role is Role.NAMESPACE:
        return entry.kind in ("namespace", "type", "enum")
    return entry.kind != "namespace"


# Macros HIP's NVIDIA platform defines empty (hip/hip_common.h): `#if
# __HIPCC__` and `#elif __HIPCC__` are errors there, `#if defined(...)` is not.
_EMPTY_ON_NVIDIA = frozenset({"__HIPCC__", "__HIP_PLATFORM_NVIDIA__", "__HIP_PLATFORM_AMD__"})


def _tested_for_value(ctx: Context, at: int) -> bool:
    """The name at ``at`` stands in an ``#if``/``#elif`` condition as a value
    (not as the operand of ``defined``)."""
    code, directives = _conditions(ctx)
    for directive in directives:
        if directive.cond_start <= at < directive.end:
            if directive.keyword not in ("if", "elif"):
                return False
            before = code[directive.cond_start:at].rstrip()
            if before.endswith(b"("):
                before = before[:-1].rstrip()
            return not before.endswith(b"defined")
    return False


def _conditions(ctx: Context) -> tuple[bytes, tuple[Directive, ...]]:
    """The file without comments and strings, and its conditional directives:
    once per rule run (kept with the run, not beyond it)."""
    found = ctx.memo.get(_CONDITIONS)
    if found is None:
        code = blank(ctx.data)
        found = ctx.memo[_CONDITIONS] = (code, tuple(conditional_directives(code)))
    return found  # type: ignore[return-value]


_CONDITIONS = "renames.conditions"


class _Spans:
    """Byte spans, asked whether one of them covers a range (in log time: a
    helper with thousands of removed `case` labels has as many spans)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [start for start, _ in ordered]
        self.reach = list(accumulate((end for _, end in ordered), max))

    def cover(self, start: int, end: int) -> bool:
        at = bisect_right(self.starts, start) - 1
        return at >= 0 and self.reach[at] >= end


def _deleted_arguments(ctx: Context) -> list[tuple[int, int]]:
    """Spans that argument rules delete: what is inside goes with them."""
    spans: list[tuple[int, int]] = []
    for ref in ctx.analysis.references:
        entry = ctx.table.lookup(ref.name)
        if entry is None or entry.rule is None or ref.args is None:
            continue
        entry, availability = for_target(entry, ctx.settings.rocm_version)
        if availability is not Availability.AVAILABLE or entry.rule is None:
            continue
        rule = rule_for(entry)
        outcome = None if rule is None else rule(ctx.data, ref, ctx.settings.rocm_version)
        if outcome is not None:
            spans += [(e.start, e.end) for e in outcome[0] if e.end > e.start and not e.text]
    return spans


def _finding(code: str, message: str, ref: Reference, entry: Mapping,
             fix: Fix | None = None) -> Finding:
    return Finding(code, message, ref.start, ref.end, fix=fix, cuda_name=entry.cuda,
                   hip_name=entry.hip, library=entry.library, note=entry.note)


@functools.lru_cache(maxsize=4096)
def _for_target_noted(entry: Mapping, target: Release | None) -> tuple[Mapping, Availability]:
    """``for_target``, with the note said for the target, not as the
    catalogue's evidence ("... in the ROCm 5.2 headers"). Cached: a tree
    refers to the same few hundred names thousands of times."""
    entry, availability = for_target(entry, target)
    return replace(entry, note=note_for_target(entry, target)), availability


def _convert(ctx: Context, ref: Reference, entry: Mapping) -> Iterator[Finding]:
    note = f": {entry.note}" if entry.note else ""
    if entry.status is Status.UNSUPPORTED:
        polyfill = emulated(entry.cuda, ctx.settings, ref.start, ref.end,
                            library=entry.library, note=entry.note)
        if polyfill is not None:
            yield polyfill
            return
        yield _finding("HP901", f"`{entry.cuda}` has no {counterpart(entry)}{note}", ref, entry)
        return
    if entry.status is Status.REMOVED:
        yield _finding("HP903", f"`{entry.cuda}` was removed from CUDA{note}", ref, entry)
        return
    target = ctx.settings.rocm_version
    entry, availability = _for_target_noted(entry, target)
    note = f": {entry.note}" if entry.note else ""
    if target is not None and availability is not Availability.AVAILABLE:
        # A name the target's ROCm is too old for may have a fallback (CUDA's
        # stream attributes: hipStreamSetAttribute is new in 7.2).
        polyfill = emulated(entry.cuda, ctx.settings, ref.start, ref.end, library=entry.library,
                            note=entry.note) if availability is Availability.TOO_NEW else None
        if polyfill is not None:
            yield polyfill
            return
        yield _finding("HP905", unavailable_reason(entry, availability, target) + note,
                       ref, entry)
        return
    if entry.hip == entry.cuda and entry.rule is None:
        # The target declares the name, and a fallback that stays beside it
        # adds CUDA's forms (ROCm 7.2's __syncwarp takes only a 64-bit mask):
        # the use is the header's, as on older targets.
        polyfill = emulated(entry.cuda, ctx.settings, ref.start, ref.end, library=entry.library,
                            note=entry.note)
        if polyfill is not None:
            yield polyfill
            return
    detail = caveat = ""
    extra: tuple[Edit, ...] = ()
    rule = rule_for(entry)
    if rule is not None:
        outcome = rule(ctx.data, ref, target)
        if outcome is None:
            yield _finding("HP904", f"`{entry.cuda}` -> `{entry.hip}` needs its arguments "
                           f"rewritten ({entry.rule}) and this use is not a plain call; "
                           "convert it by hand", ref, entry)
            return
        if outcome.blocker:
            yield _finding(outcome.blocker_code,
                           f"`{entry.cuda}` is left unchanged: {outcome.blocker}",
                           ref, entry)
            return
        extra, detail, caveat = outcome.edits, outcome.detail, outcome.caveat
        if outcome.hip is not None:
            entry = replace(entry, hip=outcome.hip)
    assert entry.hip is not None
    edits: tuple[Edit, ...] = ()
    if entry.hip != entry.cuda:
        text = entry.hip
        if entry.hip in _EMPTY_ON_NVIDIA and _tested_for_value(ctx, ref.start):
            text = f"defined({entry.hip})"
            detail = "tested with defined(): HIP's NVIDIA platform defines it empty"
        edits = (Edit(ref.start, ref.end, text.encode()),)
    edits += extra
    if not edits:
        return
    applicability = Applicability.UNSAFE if entry.unsafe else Applicability.SAFE
    code = LIBRARY_CODES.get(entry.library, "HP200")
    if entry.status is Status.DEPRECATED:
        code = "HP902"
        note = f": {deprecation_reason(entry, target)}" + (f"; {entry.note}" if entry.note
                                                           else "")
    elif applicability is Applicability.UNSAFE and not ctx.settings.unsafe_fixes:
        code = "HP904"
    message = f"`{entry.cuda}` -> `{entry.hip}`" + (f" ({detail})" if detail else "") + note
    fix = Fix(edits, applicability, f"Replace `{entry.cuda}` with `{entry.hip}`")
    yield _finding(code, message, ref, entry, fix)
    if caveat:
        # The rewrite above is what compiles; what it may change is said apart.
        yield Finding("HP411", f"`{entry.cuda}` -> `{entry.hip}`: {caveat}", ref.start, ref.end,
                      cuda_name=entry.cuda, hip_name=entry.hip, library=entry.library)
