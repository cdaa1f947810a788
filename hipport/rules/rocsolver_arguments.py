"""cuSOLVER dense calls as rocSOLVER takes them (`--roc`): rocSOLVER sizes and
allocates its own workspace (from the rocBLAS handle), so the Workspace and
Lwork arguments of cuSOLVER's routines have no place in its calls; and some
of its routines report no `info` (the argument check's -i goes to the
returned rocblas_status instead).

`cusolverDnSpotrf(h, uplo, n, A, lda, work, lwork, info)` ->
`rocsolver_spotrf(h, uplo, n, A, lda, info)`, the prototypes of rocSOLVER
3.28 (ROCm 6.4) and 3.32 (ROCm 7.2) alike."""
from __future__ import annotations

import re
from typing import NamedTuple

from hipport.edits import Edit
from hipport.parse.model import Reference
from hipport.rules import ArgumentRewrite, ArgumentRule, entry_argument_rule
from hipport.rules.shapes import KeepArguments
from hipport.table.schema import Mapping as Entry
from hipport.table.versions import Release


class _Drop(NamedTuple):
    arity: int  # of the cuSOLVER call
    dropped: tuple[int, ...]  # argument indexes rocSOLVER has no parameter for
    info: bool  # the last dropped argument is cuSOLVER's devInfo


# The routine (cusolverDn<T><routine>) -> what its call loses.  The
# prototypes of both sides were compared (cusolverDn.h of CUDA 12.9, rocSOLVER
# 3.28 and 3.32); a routine not here takes other arguments than a deletion
# makes (syevd's E array, gesvd's rocblas_svect) and is left to a person.
_DROPS: dict[str, _Drop] = {
    "potrf": _Drop(8, (5, 6), False),
    "potri": _Drop(8, (5, 6), False),
    "getrf": _Drop(8, (5,), False),
    "sytrf": _Drop(9, (6, 7), False),
    "getrs": _Drop(10, (9,), True),
    "potrs": _Drop(9, (8,), True),
    "potrsBatched": _Drop(10, (8,), True),
    "geqrf": _Drop(9, (6, 7, 8), True),
    "gebrd": _Drop(12, (9, 10, 11), True),
    "sytrd": _Drop(11, (8, 9, 10), True),
    "hetrd": _Drop(11, (8, 9, 10), True),
    "orgqr": _Drop(10, (7, 8, 9), True),
    "ungqr": _Drop(10, (7, 8, 9), True),
    "orgtr": _Drop(9, (6, 7, 8), True),
    "ungtr": _Drop(9, (6, 7, 8), True),
    "ormqr": _Drop(14, (11, 12, 13), True),
    "unmqr": _Drop(14, (11, 12, 13), True),
    "ormtr": _Drop(14, (11, 12, 13), True),
    "unmtr": _Drop(14, (11, 12, 13), True),
}
ROUTINES = frozenset(_DROPS)
_NAME = re.compile(r"cusolverDn([SDCZ])([a-zA-Z]+)")
_NULL = re.compile(rb"\s*(?:NULL|nullptr|0|\(\s*int\s*\*\s*\)\s*(?:NULL|nullptr|0))\s*")


def _routine(name: str) -> tuple[str, str] | None:
    m = _NAME.fullmatch(name)
    return (m.group(1).lower(), m.group(2)) if m is not None and m.group(2) in _DROPS else None


def _deletions(args: tuple[tuple[int, int], ...], dropped: list[int]) -> tuple[Edit, ...]:
    """Each run of dropped arguments with the commas that join it to the rest:
    from its first argument to the next kept one, or, for a run that ends the
    call, from the end of the last kept one."""
    runs: list[list[int]] = []
    for index in sorted(dropped):
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    edits = []
    for run in runs:
        first, last = run[0], run[-1]
        if last + 1 < len(args):
            edits.append(Edit(args[first][0], args[last + 1][0], b""))
        else:
            edits.append(Edit(args[first - 1][1], args[last][1], b""))
    return tuple(edits)


RULE = "rocsolver-arguments"


@entry_argument_rule(RULE)
def rocsolver_arguments(entry: Entry) -> ArgumentRule:
    """The workspace arguments (and for the routines that report no info,
    devInfo) go; `getrf` with a null pivot array becomes `getrf_npvt`.  The
    shape (for the compat header's macro) is the routine's own deletion."""
    routine = _routine(entry.cuda)
    shape = None
    if routine is not None:
        drop = _DROPS[routine[1]]
        shape = KeepArguments(drop.arity, tuple(i for i in range(drop.arity)
                                                if i not in drop.dropped))
    return ArgumentRule(RULE, _rewrite, shape)


def _rewrite(data: bytes, ref: Reference, target: Release | None) -> ArgumentRewrite | None:
    routine = _routine(ref.name)
    if routine is None or ref.args is None:
        return None
    kind, name = routine
    drop = _DROPS[name]
    if len(ref.args) != drop.arity:
        return None
    dropped = list(drop.dropped)
    hip = None
    if name == "getrf" and _NULL.fullmatch(data[slice(*ref.args[6])]):
        dropped.append(6)  # no pivoting: rocSOLVER's own routine for it
        hip = f"rocsolver_{kind}getrf_npvt"
    edits = _deletions(ref.args, dropped)
    detail = "the workspace arguments were dropped (rocSOLVER allocates its own)"
    caveat = ""
    if drop.info:
        info = data[slice(*ref.args[drop.dropped[-1]])]
        shown = " ".join(info.decode("utf-8", "replace").split())
        caveat = (f"rocSOLVER's {ref.name[len('cusolverDn') + 1:]} reports no info: "
                  f"`{shown}` is no longer written (an invalid argument is the returned "
                  "rocblas_status instead); code that reads it reads what was there before")
    return ArgumentRewrite(edits, detail, caveat, hip)
