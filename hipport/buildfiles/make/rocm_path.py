"""The toolkit root of a Makefile: `CUDA_PATH ?= /usr/local/cuda` becomes a
ROCm root found on the machine that builds.

AMD installs ROCm in /opt/rocm, distributions in /usr (Debian: hipcc in
/usr/bin, device libraries under /usr/lib/<multiarch> or in Clang's resource
directory).  `hipconfig --rocmpath` knows which; /opt/rocm is the answer when
hipconfig is not on the PATH.  The value is computed once (`:=`) and never
exported: hipcc reads ROCM_PATH from its environment and, given /usr, looks
for the device libraries in the wrong place (`make ROCM_PATH=/usr` exports it,
and ROCm 6.4's Clang then fails with "cannot find ROCm device library")."""
from __future__ import annotations

import re

from hipport.buildfiles.make.tokens import MakeLine
from hipport.buildfiles.words import split_words
from hipport.edits import Edit, Fix
from hipport.findings import Finding

TOOLKIT_ROOTS = frozenset({"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT", "CUDA_INSTALL_PATH"})
ROCM_ROOT = "$(shell hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)"
_CUDA_PREFIX = re.compile(r"/usr/local/cuda(-[0-9][0-9.]*)?/?")
_PLAIN_OPERATORS = frozenset({"=", ":=", "::="})


def rocm_root(text: str, line: MakeLine, keep_name: bool = False) -> Finding | None:
    """`<toolkit root> ?= /usr/local/cuda[-X.Y]` (also `=`, `:=`) -> the ROCm
    root hipconfig reports; None for any other line.  ``keep_name`` (a
    single-source Makefile): the variable keeps its name and takes ROCM_PATH
    when the environment has it."""
    name = line.name
    if (name is None or name.text not in TOOLKIT_ROOTS or text[line.start:name.start].strip()
            or line.operator not in _PLAIN_OPERATORS | {"?="}):
        return None
    words = list(split_words(text, line.value_start, line.content_end))
    if len(words) != 1 or not _CUDA_PREFIX.fullmatch(words[0].text):
        return None
    if keep_name:
        assignment = f"{name.text} := $(or $(ROCM_PATH),{ROCM_ROOT})"
        message = (f"{name.text} {line.operator} {words[0].text} -> the ROCm root: ROCM_PATH "
                   "from the environment, else hipconfig --rocmpath (/opt/rocm without it)")
        fix = Fix((Edit(name.start, words[0].end, assignment.encode("latin-1")),), title=message)
        return Finding("HP612", message, line.start, line.end, fix)
    assignment = f"ROCM_PATH := {ROCM_ROOT}"
    message = (f"{name.text} {line.operator} {words[0].text} -> ROCM_PATH from hipconfig "
               "--rocmpath (/opt/rocm without hipconfig), computed once and not exported")
    edits: tuple[Edit, ...]
    if line.operator == "?=":  # make 4.3 has no conditional simple assignment
        edits = (Edit(name.start, words[0].end,
                      f"ifndef ROCM_PATH\n{assignment}".encode("latin-1")),
                 Edit(line.end, line.end, b"\nendif"))
    else:
        edits = (Edit(name.start, words[0].end, assignment.encode("latin-1")),)
    return Finding("HP612", message, line.start, line.end, Fix(edits, title=message))
