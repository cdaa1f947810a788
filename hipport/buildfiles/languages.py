"""How a build compiles a C++ source: as plain C++, as C++ given the HIP
platform, or as HIP.

A converted C++ source that includes ``hip/hip_runtime.h`` compiles only
where the build says which HIP platform it is for: CMake's CXX compiler
(GCC or Clang) and make's ``$(CXX)`` define none, and neither does ``hipcc
-x c++`` (HIP 5.2 and ROCm 6.4 alike), so the header stops at ``#error
("Must define exactly one of __HIP_PLATFORM_AMD__ or
__HIP_PLATFORM_NVIDIA__")``.  The build gives the platform by linking
``hip::host`` (or a ROCm library target, which links it), and compiles the
source as HIP when it sets ``LANGUAGE HIP``, links ``hip::device`` or
compiles it with hipcc.  Each build system reads which of the three its
files choose (``BuildSystem.compile_flags``), and ``hipport verify
--units`` compiles the source the same way."""
from __future__ import annotations

import enum
from typing import TypeVar

CXX_SUFFIXES = frozenset({".cpp", ".cc", ".cxx", ".c++", ".C"})
PLATFORM_DEFINE = "-D__HIP_PLATFORM_AMD__=1"  # as hip::host gives it


class Compiled(enum.IntEnum):
    """How a build compiles a C++ source; the lower is the one that fails
    first (a source two targets compile differently is held to the lower)."""

    CXX = 0  # C++, no HIP platform
    CXX_WITH_PLATFORM = 1  # C++ with __HIP_PLATFORM_AMD__ (hip::host)
    HIP = 2  # as HIP: LANGUAGE HIP, hip::device, hipcc

    @property
    def flags(self) -> list[str]:
        """What hipcc needs to compile the source the same way."""
        if self is Compiled.HIP:
            return ["-x", "hip"]
        if self is Compiled.CXX_WITH_PLATFORM:
            return ["-x", "c++", PLATFORM_DEFINE]
        return ["-x", "c++"]


_K = TypeVar("_K")


def lowest(found: dict[_K, Compiled], key: _K, compiled: Compiled) -> None:
    """Record ``compiled`` for ``key``, keeping the lower of two."""
    found[key] = min(found.get(key, compiled), compiled)
