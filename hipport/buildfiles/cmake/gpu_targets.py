"""The run's GPU targets written where the CUDA build named none.

Without ``CMAKE_CUDA_ARCHITECTURES`` nvcc built for its own default; CMake's
HIP language, given no ``CMAKE_HIP_ARCHITECTURES``, takes whatever GPU the
configuring machine has, else Clang's default (gfx906), which is neither
what hipport promises (``--offload-arch``) nor what the port was tested for.
CMake reads the variable when it enables HIP, so the default goes just
before the ``project()``/``enable_language()`` that does, and only when the
user gave none (``-DCMAKE_HIP_ARCHITECTURES=...`` on the command line wins)."""
from __future__ import annotations

from hipport.buildfiles.cmake.passes import CMakePass, indent
from hipport.buildfiles.cmake.tokens import ArgKind, Command

_ENABLING = frozenset({"project", "enable_language"})
_NAMES = ("CMAKE_CUDA_ARCHITECTURES", "CMAKE_HIP_ARCHITECTURES")


def default_architectures(p: CMakePass, commands: list[Command]) -> None:
    """HP603: ``if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)`` with the run's
    targets before the first command that enables HIP in place of CUDA, in a
    file that sets no architectures of its own."""
    if not p.language_converted or any(_names_architectures(c) for c in commands):
        return
    enabling = next((c for c in commands if c.lname in _ENABLING and any(
        a.kind is ArgKind.UNQUOTED and a.text == "CUDA" for a in c.words)), None)
    if enabling is None:
        return
    ind = indent(p.text, enabling.start)
    nl = "\r\n" if "\r\n" in p.text else "\n"  # the file's own line ends
    block = (f"if(NOT DEFINED CMAKE_HIP_ARCHITECTURES){nl}{ind}  set(CMAKE_HIP_ARCHITECTURES "
             f"{p.offload_list}){nl}{ind}endif(){nl}{ind}")
    p.edit("HP603", f"no GPU architectures were set: CMAKE_HIP_ARCHITECTURES defaults to "
           f"{p.offload_list} (CMake would take the configuring machine's GPU, or gfx906); "
           "-DCMAKE_HIP_ARCHITECTURES=... chooses others", enabling.start, enabling.start,
           block, claim=False)


def _names_architectures(cmd: Command) -> bool:
    return any(name in a.text for a in cmd.words for name in _NAMES)
