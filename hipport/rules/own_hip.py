"""Partly ported files: the project's own HIP branches stay as written
(hipport.parse.hip_branches says which), the rest of the file is converted.

Each HIP branch gets HP327, which says what was done.  A branch selected by
a switch of the project's (`#ifdef USE_HIP`) is compiled only by a build
that defines it, which the converted build need not do: the file's other
code, converted, compiles on AMD either way, and the CUDA names the branch
defined for the HIP build (`#define cudaMalloc hipMalloc`) no longer stop
their uses outside it from being converted (they did: a name the file
defines was taken for the project's own)."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator

from hipport.codes import CODES
from hipport.diagnostics.model import Category
from hipport.findings import Finding
from hipport.parse.hip_branches import HipBranch, OwnHip
from hipport.rules import Context, file_rule

OWN_HIP = "HP327"


@file_rule("own-hip-branches", codes=(OWN_HIP,))
def report_own_hip_branches(ctx: Context) -> Iterator[Finding]:
    own = ctx.analysis.own_hip
    if own is None:
        return
    # Names a HIP branch declares that the file's converted code uses.
    hip_only = ctx.analysis.hip_declared - ctx.analysis.declared
    used = sorted({r.name for r in ctx.analysis.references if r.name in hip_only})
    for branch in own.branches:
        start, end = branch.directive
        line = _line(ctx.data, branch.directive)
        if branch.opening != branch.directive:
            line += f"` of `{_line(ctx.data, branch.opening)}"
        yield Finding(OWN_HIP, _message(line, branch, used), start,
                      start + len(ctx.data[start:end].rstrip()))


def _line(data: bytes, span: tuple[int, int]) -> str:
    return " ".join(data[span[0]:span[1]].decode("utf-8", "replace").split())


def _message(line: str, branch: HipBranch, used: list[str]) -> str:
    said = f"`{line}` opens the project's own HIP branch: left as written"
    if branch.by_platform:
        said += " (every HIP build takes it)"
    if branch.cuda:
        said += f", as is the branch for `{branch.cuda}` beside it (hipcc never takes it)"
    if not branch.by_platform:
        said += (f"; the converted build does not define `{branch.switch}` and compiles the "
                 "file's code outside the branch, converted (define "
                 f"`{branch.switch}` to build the branch instead)")
    if used:
        names = ", ".join(f"`{n}`" for n in used[:3]) + (", ..." if len(used) > 3 else "")
        said += (f"; {names}, defined in it for the HIP build, are not taken for the file's "
                 "own names outside it")
    return said


def keep_own_hip(findings: Iterable[Finding], own: OwnHip | None) -> list[Finding]:
    """``findings`` without what would change the project's own HIP code or
    the CUDA branches beside it: a reference there is not the port's (a
    semantic front end may add one), and a rule's fix there is dropped,
    with its finding (a hazard's stays, without the fix: the HIP code has
    it too).  Nothing is said of a CUDA branch hipcc never compiles."""
    if own is None:
        return list(findings)
    kept: list[Finding] = []
    for f in findings:
        code = CODES[f.code]
        if own.never_compiled(f.start) or code.reference and own.keeps(
                f.start, f.end if f.end > f.start else None):
            continue
        if f.fix is not None and any(own.keeps(e.start, e.end) for e in f.fix.edits):
            if code.category is not Category.HAZARD:
                continue
            f = replace(f, fix=None)
        kept.append(f)
    return kept
