"""`--strategy compat`: the code stays CUDA; one generated header maps the
names it uses to HIP for the AMD build (docs/single-source.md).

* ``sources``: the per-file edit (include the header, hide the CUDA toolkit
  includes from the AMD build);
* ``header``: the header's text, from the catalogue and the names used;
* ``place``: where the tree's header is (a folder above, forwarders), and
  the refusals that keep hipport from replacing a file it did not generate;
* ``tree``: the run-level step (collect the names, write or diff the header,
  flag names an existing header does not cover)."""
from __future__ import annotations

import re

from hipport.generated import COMPAT_HEADER_MARKER

DEFAULT_HEADER = "hip_compat.h"
# The first line of every generated header: such a file is never converted,
# and only such a file is ever overwritten.
MARKER = COMPAT_HEADER_MARKER
GUARD = "HIPPORT_HIP_COMPAT_H"
# The macro the AMD build is known by when the project names none.
PLATFORM_MACRO = "__HIP_PLATFORM_AMD__"
# The strategy's two codes: the header included in a source, and a CUDA name
# the code uses that the header does not map.
HEADER_INCLUDED = "HP310"
HEADER_STALE = "HP311"


def amd_condition(macro: str | None) -> str:
    """The preprocessor test for "this is the AMD build" inside the header.
    hipcc defines ``__HIP__`` for HIP code; ``__HIP_PLATFORM_AMD__`` comes
    from HIP's own headers (and CMake's hip::host), so both are looked at."""
    if macro:
        return f"defined({macro})"
    return "defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)"


def wrap_macro(macro: str | None) -> str:
    """The macro the sources' wraps test."""
    return macro or PLATFORM_MACRO


def source_condition(macro: str | None) -> str:
    """The test that hides a CUDA include from the AMD build: the compat
    header, included first, has defined ``__HIP_PLATFORM_AMD__`` by then
    (its hip/hip_runtime.h does)."""
    return f"!defined({wrap_macro(macro)})"


def header_macro(text: bytes) -> str | None:
    """The macro a generated header selects the AMD build with ("" for the
    default test), None when it says none (not a full header)."""
    found = re.search(rb"^#define " + GUARD.encode() + rb"\n#if (.*)$", text, re.M)
    if found is None:
        return None
    condition = found.group(1).decode("ascii", "replace")
    if condition == amd_condition(""):
        return ""
    named = re.fullmatch(r"defined\((\w+)\)", condition)
    return named.group(1) if named else None
