"""cuSPARSE calls whose hipSPARSE twin takes an argument CUDA 12 dropped.

CUDA 12's ``cusparseSpSM_solve`` takes 10 arguments: the buffer the analysis
step was given is kept in the descriptor.  ``hipsparseSpSM_solve`` (ROCm 6.4
and 7.2) still takes it as an 11th, so the renamed call stopped the build at
``too few arguments to function 'hipsparseSpSM_solve'``.  The buffer is the
one the file's ``cusparseSpSM_analysis`` call for the same descriptor was
given; a call with no such analysis before it is left for a person."""
from __future__ import annotations

import re

from hipport.edits import Edit
from hipport.parse.conditions import blank
from hipport.parse.model import Reference
from hipport.parse.pptokens import call_arguments, tokenize
from hipport.rules import ArgumentRewrite, argument_rule
from hipport.table.versions import Release

_SPSM_ANALYSIS = re.compile(rb"\bcusparseSpSM_analysis\s*\(")
# An operand that can be written a second time: a name, a member of one, or
# a cast of one (the buffer is usually `dBuffer` or `(void*)buf`).
_OPERAND = re.compile(rb"(?:\(\s*void\s*\*\s*\)\s*)?[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)*")
_NO_ANALYSIS = ("hipsparseSpSM_solve takes, as its last argument, the buffer given to "
                "hipsparseSpSM_analysis for the same descriptor (CUDA 12 keeps it in the "
                "descriptor), and no such call comes before this one in the file: pass it by hand")


def _call_arguments(data: bytes, open_paren: int, limit: int) -> list[bytes] | None:
    """The arguments, stripped, of the call whose ``(`` is at ``open_paren``
    (the call ends before ``limit``)."""
    segment = data[open_paren:limit]
    spans = call_arguments(list(tokenize(segment)), 0)
    return None if spans is None else [segment[start:end].strip() for start, end in spans]


@argument_rule("spsm-solve-buffer")
def spsm_solve_buffer(data: bytes, ref: Reference,
                      target: Release | None) -> ArgumentRewrite | None:
    if ref.args is None or len(ref.args) != 10:
        return None
    descriptor = data[ref.args[9][0]:ref.args[9][1]].strip()
    code = blank(data)
    buffer = None
    for found in _SPSM_ANALYSIS.finditer(code, 0, ref.start):
        args = _call_arguments(data, found.end() - 1, ref.start)
        if args is not None and len(args) == 11 and args[9] == descriptor:
            buffer = args[10]
    if buffer is None or _OPERAND.fullmatch(buffer) is None:
        return ArgumentRewrite((), "", blocker=_NO_ANALYSIS, blocker_code="HP906")
    end = ref.args[9][1]
    return ArgumentRewrite((Edit(end, end, b", " + buffer),),
                           f"the buffer of its analysis, `{buffer.decode()}`, passed last")
