"""The compat strategy's edit to one source: the smallest one that lets the
same file build for AMD.

* ``#include "hip_compat.h"`` (the path relative to the file) goes before
  the first CUDA toolkit include, or where a new include goes;
* each run of CUDA toolkit includes is wrapped in
  ``#if !defined(__HIP_PLATFORM_AMD__)`` ... ``#endif``.

Nothing else changes (but spaced launch chevrons, ``<< <``, which only nvcc
reads, are joined: HP312): the findings of every rule are reported as usual, but
no fix is applied; a rename or include the header takes care of counts as
converted (its finding is *covered*)."""
from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path, PurePath

from hipport.compat import DEFAULT_HEADER, HEADER_INCLUDED, MARKER, source_condition, wrap_macro
from hipport.compat.header import definition
from hipport.convert import (
    ConversionResult,
    allowed,
    apply_findings,
    collect_findings,
    introduced_parse_error,
    release_tree,
)
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.model import Analysis, Backend, Include
from hipport.rules.cuda_version import REPLACED, VERSION_MACROS, VERSION_TEST, macro_values
from hipport.rules.emulation import APPLIED_CODES
from hipport.rules.includes import CUDA_HEADER_PREFIXES
from hipport.rules.kernel_launch import LAUNCH_JOINED
from hipport.settings import Settings
from hipport.source import BOM, newline_of
from hipport.table import MappingTable

INCLUDED = HEADER_INCLUDED


def include_target(header: str, path: Path | None) -> str:
    """How ``path`` names ``header``: relative to its folder, '/'-separated."""
    header = header or DEFAULT_HEADER
    if path is None or not os.path.isabs(header):
        return Path(header).name if path is None else header
    rel = os.path.relpath(header, os.path.dirname(os.path.abspath(path)))
    return Path(rel).as_posix()


def is_toolkit_include(inc: Include, table: MappingTable) -> bool:
    """A CUDA toolkit header the AMD build must not see: one the catalogue
    maps to another header (or to none), or an unknown system header that
    looks like CUDA's."""
    entry = table.lookup(inc.target)
    if entry is not None and entry.kind == "header":
        return entry.hip != entry.cuda
    return inc.system and inc.target.startswith(CUDA_HEADER_PREFIXES)


_IDENTIFIER = re.compile(rb"[A-Za-z_]\w*")


def covers(finding: Finding, settings: Settings, table: MappingTable) -> bool:
    """Whether the compat header stands in for this finding's fix (or, for a
    name the polyfills emulate, for the fix there is none of)."""
    if finding.code in APPLIED_CODES:
        return True
    if finding.fix is None or not allowed(finding.fix, settings):
        return False
    if finding.cuda_name is None:
        return finding.code == "HP306"
    # A call whose arguments a rule rewrites is stood in for only by a macro of
    # the rule's shape; without one (cuDNN's NCHW/NHWC rules) the call stays
    # CUDA's in the AMD build: a finding left open, not a covered rename.
    entry = table.lookup(finding.cuda_name)
    return entry is None or entry.rule is None or definition(entry) is not None


def _unmacroable(finding: Finding, table: MappingTable) -> Finding | None:
    """A call whose arguments a rule rewrites and no macro can (cuDNN's
    NCHW/NHWC rules, the SpSM analysis buffer): it stays CUDA's in the AMD
    build, an unconverted reference for a person (HP906), not the rename the
    rewrite strategy would have reported."""
    entry = table.lookup(finding.cuda_name) if finding.cuda_name is not None else None
    if entry is None or entry.rule is None or definition(entry) is not None:
        return None
    return replace(finding, code="HP906", fix=None, message=(
        f"`{entry.cuda}` stays CUDA's in the AMD build: its arguments need rewriting "
        f"({entry.rule}), which no macro of the compat header can do; convert this call by "
        f"hand (the rewrite strategy makes it `{entry.hip}`)"))


def as_rename(finding: Finding, data: bytes, settings: Settings) -> Finding | None:
    """A hazard's safe fix that swaps one identifier for another (a device
    property renamed in HIP): the header can map it like a catalogue name."""
    fix = finding.fix
    if finding.cuda_name is not None or fix is None or not allowed(fix, settings) \
            or len(fix.edits) != 1:
        return None
    edit = fix.edits[0]
    old = data[edit.start:edit.end]
    if not (_IDENTIFIER.fullmatch(old) and _IDENTIFIER.fullmatch(edit.text)):
        return None
    return replace(finding, cuda_name=old.decode(), hip_name=edit.text.decode())


def convert_compat(data: bytes, backend: Backend, table: MappingTable, settings: Settings,
                   path: Path | None = None, header: str = "", macro: str | None = None,
                   respelled: tuple[str, ...] = ()) -> ConversionResult:
    """``header``: the compat header's path (absolute once planned); ``macro``:
    the one that selects the AMD build (None or "": the platform's);
    ``respelled``: macros earlier wraps tested, to be re-spelled for it."""
    if data.startswith(MARKER):  # the generated header itself
        return apply_findings(data, [], settings)
    first = collect_findings(data, backend, table, settings, path)
    first.findings = [as_rename(f, data, settings) or f for f in first.findings]
    first.findings = [version_test_told(f, data, header, settings) for f in first.findings]
    covered = [f for f in first.findings if covers(f, settings, table)]
    # No fix of any rule is applied but the joining of spaced launch chevrons
    # (which nvcc reads the same): the allowed ones are dropped (the header
    # stands in for renames), the others kept unapplied, so that they still
    # count as unconverted and show what --unsafe-fixes would map.
    findings = [_unmacroable(f, table) or replace(f, fix=None)
                if f.fix is not None and allowed(f.fix, settings) and f.code != LAUNCH_JOINED
                else f for f in first.findings]
    covered_ids = {id(findings[i]) for i, f in enumerate(first.findings)
                   if any(f is c for c in covered)}
    uses_cuda = any(f.cuda_name is not None for f in first.findings) or bool(covered)
    edit = _compat_edit(data, first.analysis, table, path, uses_cuda, header, macro, respelled)
    if edit is not None:
        findings.append(edit)
    errors = first.analysis.error_count

    def verify(output: bytes, had_skips: bool, edits: tuple[Edit, ...]) -> Finding | None:
        # Always Check.REPARSE (hipport.convert.choose_check decides for the
        # rewrite strategy): the compat edit renames nothing, so a second pass
        # has nothing to find; only a parse the edit made worse is refused.
        release_tree(first.analysis)  # the output is parsed afresh
        if backend.error_count(output) > errors:
            return introduced_parse_error("text with the compat edit")
        return None

    result = apply_findings(data, findings, settings, verify,
                            frozenset(first.analysis.declared), covered=frozenset(covered_ids))
    # Whole lines are added, and lines with joined chevrons changed: "changed
    # lines" are the lines a diff adds.
    added = result.output.count(b"\n") - data.count(b"\n")
    joined = {line for f in result.findings if f.code == LAUNCH_JOINED and f.applied
              for line in range(f.location.line, f.end_location.line + 1)}
    return replace(result, stats=replace(result.stats, changed_lines=max(added, 0) + len(joined)))


def _compat_edit(data: bytes, analysis: Analysis, table: MappingTable, path: Path | None,
                 uses_cuda: bool, header: str, given_macro: str | None,
                 respelled_macros: tuple[str, ...]) -> Finding | None:
    includes = sorted(analysis.includes, key=lambda i: i.start)
    toolkit = [i for i in includes if is_toolkit_include(i, table) and _whole_line(data, i)]
    if not uses_cuda and not toolkit:
        return None
    newline = newline_of(data)
    target = include_target(header, path)
    name = Path(target).name
    inserts: dict[int, list[bytes]] = {}
    # A line added at the top goes after a UTF-8 byte-order mark, which
    # must stay the file's first bytes.
    first = len(BOM) if data.startswith(BOM) else 0
    present = any(Path(i.target).name == name and not i.system for i in includes)
    if not present:
        at = max(_insertion(toolkit, includes, analysis), first)
        inserts.setdefault(at, []).append(f'#include "{target}"'.encode() + newline)
    condition = source_condition(given_macro)
    macro = wrap_macro(given_macro)
    wrapped = 0
    respelled: list[Edit] = []
    for group in _groups(toolkit):
        start, end = max(group[0].line_start, first), group[-1].line_end
        wrap = _wrap_around(data, start, end)
        if wrap is not None and wrap[2] == macro:
            continue
        if wrap is not None and wrap[2] in respelled_macros:
            # The tree's macro was changed (--compat-macro): the wrap an
            # earlier run made is re-spelled, not wrapped again.
            respelled.append(Edit(wrap[0], wrap[1], f"#if {condition}".encode()))
            continue
        wrapped += len(group)
        inserts.setdefault(start, []).append(f"#if {condition}".encode() + newline)
        tail = b"#endif" + newline
        if not data[:end].endswith(b"\n"):  # the last line had no line break
            tail = newline + tail
        inserts.setdefault(end, []).insert(0, tail)
    if not inserts and not respelled:
        return None
    edits = tuple(sorted([Edit(at, at, b"".join(texts)) for at, texts in inserts.items()]
                         + respelled))
    what = [] if present else [f'includes "{target}"']
    if wrapped:
        what.append(f"{wrapped} CUDA include{'s' if wrapped != 1 else ''} hidden from the AMD "
                    f"build (#if {condition})")
    if respelled:
        what.append(f"{len(respelled)} #if around CUDA includes re-spelled for --compat-macro "
                    f"(#if {condition})")
    at = edits[0].start
    return Finding(INCLUDED, "compat: " + "; ".join(what), at, at,
                   fix=Fix(edits, title=f"Include {target}"))


def version_test_told(finding: Finding, data: bytes, header: str,
                      settings: Settings) -> Finding:
    """A CUDA version test (HP309) as compat leaves it: the line is unchanged,
    and the header defines the version macros for the AMD build."""
    if finding.code != VERSION_TEST or not finding.message.endswith(REPLACED):
        return finding
    name = PurePath(header or DEFAULT_HEADER).name
    values = macro_values(settings.assume_cuda_version)
    tested = set(_IDENTIFIER.findall(data[finding.start:finding.end]))
    macros = [m for m in VERSION_MACROS if m.encode() in tested]
    defined = [m for m in macros if m in values]
    said = (f"the line is unchanged: for the AMD build {name} defines "
            f"{', '.join(defined)} (--assume-cuda-version)" if defined
            else "the line is unchanged")
    left = [m for m in macros if m not in values]
    if left:
        said += (f"; it does not define {', '.join(left)} (nvcc's build number): undefined "
                 "on AMD, so the AMD build may take the other branch")
    return replace(finding, message=finding.message.removesuffix(REPLACED) + said)


def _whole_line(data: bytes, inc: Include) -> bool:
    """The directive is its line's only code: an ``#if`` above and an
    ``#endif`` below hide exactly it.  A trailing ``// comment`` or a
    ``/* comment */`` closed on the same line is fine; a comment that goes
    on to the next line, or a line continuation, is not."""
    if inc.alone_on_line:
        return True
    before = data[inc.line_start:inc.start]
    if inc.line_start == 0 and before.startswith(BOM):  # the mark is not on the line
        before = before[len(BOM):]
    if not before.lstrip(b" \t").startswith(b"#"):
        return False
    rest = data[inc.end + 1:inc.line_end].strip()
    if rest.endswith(b"\\"):
        return False
    if not rest or rest.startswith(b"//"):
        return True
    return rest.startswith(b"/*") and rest.endswith(b"*/") and b"*/" not in rest[2:-2]


def _insertion(toolkit: list[Include], includes: list[Include], analysis: Analysis) -> int:
    """Before the first toolkit include, when every build of the file sees
    it; else where a new include goes (the top of the file), so that an
    ``#ifdef USE_NVTX`` around the first CUDA include does not hide the
    header from the rest of the file."""
    if toolkit and not toolkit[0].conditional:
        return toolkit[0].line_start
    if analysis.include_insertion is not None:
        return analysis.include_insertion
    unconditional = [i for i in includes if not i.conditional]
    if unconditional:
        return unconditional[0].line_start
    return toolkit[0].line_start if toolkit else 0


def _groups(toolkit: list[Include]) -> list[list[Include]]:
    """Runs of includes on consecutive lines: one #if around each run."""
    groups: list[list[Include]] = []
    for inc in toolkit:
        if groups and groups[-1][-1].line_end == inc.line_start:
            groups[-1].append(inc)
        else:
            groups.append([inc])
    return groups


def _wrap_around(data: bytes, start: int, end: int) -> tuple[int, int, str] | None:
    """The ``#if !defined(NAME)`` (or ``#ifndef NAME``) on the line above
    [start, end) when an ``#endif`` follows it: (the directive's span
    without its line break, NAME)."""
    before = data[:start].rstrip(b"\r\n")
    at = before.rfind(b"\n") + 1
    line = before[at:].strip().replace(b" ", b"").replace(b"\t", b"")
    found = _WRAP.fullmatch(line)
    if found is None or not data[end:].lstrip(b" \t").startswith(b"#endif"):
        return None
    name = (found.group(1) or found.group(2)).decode()
    return at + len(before[at:]) - len(before[at:].lstrip()), len(before), name


_WRAP = re.compile(rb"#if!defined\(([A-Za-z_]\w*)\)|#ifndef([A-Za-z_]\w*)")
