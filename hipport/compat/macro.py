"""``--compat-macro NAME``: the macro that selects the AMD build.

The header tests ``defined(NAME)`` and the sources ``!defined(NAME)``, so
NAME must be a name the preprocessor can define and only the AMD build
defines: a C identifier, not a keyword (C or C++: a macro may not be named
like one), not an operator of ``#if`` (``defined``, ``__has_include``), not
a name the standards reserve, and not a macro the NVIDIA build's compilers
define themselves (its translation units would take the AMD side)."""
from __future__ import annotations

import re

from hipport.compat import PLATFORM_MACRO
from hipport.errors import UsageError
from hipport.table.schema import CPP_KEYWORDS

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# C++'s keywords and alternative tokens, and C's own beyond them.
KEYWORDS = CPP_KEYWORDS | frozenset("""
    typeof typeof_unqual _Alignas _Alignof _Atomic _BitInt _Bool _Complex _Decimal128
    _Decimal32 _Decimal64 _Generic _Imaginary _Noreturn _Static_assert _Thread_local
    """.split())
OPERATORS = frozenset({"defined", "__has_include", "__has_include_next", "__has_cpp_attribute",
                       "__has_c_attribute", "__has_embed", "__has_builtin", "__has_feature",
                       "__has_extension", "__has_attribute"})
RESERVED = frozenset({"__VA_ARGS__", "__VA_OPT__", "_Pragma"})
# Defined in every C or C++ translation unit, or by nvcc and CUDA's headers.
NVIDIA_DEFINES = frozenset({"__cplusplus", "__STDC__", "__STDC_VERSION__", "__STDC_HOSTED__",
                            "__FILE__", "__LINE__", "__DATE__", "__TIME__", "__COUNTER__",
                            "__CUDACC__", "__NVCC__", "__CUDA_ARCH__", "__CUDACC_VER_MAJOR__",
                            "__CUDACC_VER_MINOR__", "__CUDACC_VER_BUILD__", "CUDART_VERSION",
                            "CUDA_VERSION", "__CUDACC_RDC__", "__CUDA_ARCH_LIST__"})
_EXAMPLE = "such as USE_HIP"


def macro_name(name: str | None) -> str | None:
    """``--compat-macro``'s value, checked: None when not given (the tree's
    header says which), "" for the platform macro (the default test)."""
    if name is None:
        return None
    if name == PLATFORM_MACRO:
        return ""
    option = f"--compat-macro {name!r}" if name else "--compat-macro ''"
    if not _IDENTIFIER.fullmatch(name):
        spelled = re.sub(r"[^A-Za-z0-9_]", "_", name.strip())
        spelled = "_" + spelled if spelled[:1].isdigit() else spelled
        hint = (f"; did you mean `{spelled}`?" if spelled.strip("_") and _why(spelled) is None
                else f"; give the macro your AMD build defines, {_EXAMPLE}")
        raise UsageError(f"{option} is not a macro name (letters, digits and _, not starting "
                         f"with a digit){hint}")
    why = _why(name)
    if why is not None:
        raise UsageError(f"{option}: {why}; give a macro only your AMD build defines, "
                         f"{_EXAMPLE}")
    return name


def is_macro_name(name: str) -> bool:
    return _IDENTIFIER.fullmatch(name) is not None and _why(name) is None


def _why(name: str) -> str | None:
    if name in OPERATORS:
        return f"`{name}` is the preprocessor's operator, not a macro name"
    if name in KEYWORDS:
        return f"`{name}` is a C/C++ keyword, not a macro name"
    if name in RESERVED:
        return f"`{name}` is reserved by the C and C++ standards"
    if name in NVIDIA_DEFINES:
        return (f"`{name}` is predefined: the NVIDIA build defines it too, and would take the "
                "AMD side of the header")
    return None
