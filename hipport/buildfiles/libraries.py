"""CUDA libraries as build files name them, and their ROCm counterparts, from
the one library table (``hipport.libraries``, mappings/rocm-libraries.yaml).

Target names are those exported by the ROCm packages' CMake config files
(e.g. ``roc::hipblas`` in hipblas-targets.cmake, ``hip::hipfft`` in
hipfft-targets.cmake, ``hip::host`` in hip-targets.cmake)."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from hipport.libraries import DroppedLibrary, RocmLibrary, library_table

__all__ = ["BY_LINK_NAME", "BY_TARGET", "DROPPED_LIBRARIES", "PACKAGES", "BuildLibraries",
           "DroppedLibrary", "RocmLibrary", "build_libraries", "dropped_message",
           "looks_like_cuda_library"]

# CUDA link name (as in -l<name>) -> ROCm library.
BY_LINK_NAME: dict[str, RocmLibrary] = library_table().by_link_name
# CMake imported target -> ROCm library.
BY_TARGET: dict[str, RocmLibrary] = library_table().by_cmake_target

# Link names and CMake targets of libraries removed, not replaced: nvcc's own
# machinery, and what ROCm has no counterpart for (its users stop at its header).
DROPPED_LIBRARIES: dict[str, DroppedLibrary] = library_table().dropped_by_name

# find_package names of CUDA-side packages -> ROCm package.
PACKAGES: dict[str, str] = {name: lib.cmake_package or "hip"
                            for name, lib in library_table().by_cuda_package.items()}


@dataclass(frozen=True)
class BuildLibraries:
    """What build files name of CUDA's libraries, and what each becomes in
    one mode: `--roc` links rocBLAS (roc::rocblas, -lrocblas) for cuBLAS."""

    by_link_name: dict[str, RocmLibrary]
    by_target: dict[str, RocmLibrary]
    packages: dict[str, str]


@functools.lru_cache(maxsize=2)
def build_libraries(roc: bool) -> BuildLibraries:
    table = library_table()
    return BuildLibraries(table.link_names_in(roc), table.cmake_targets_in(roc),
                          {name: lib.cmake_package or "hip"
                           for name, lib in table.packages_in(roc).items()})


def looks_like_cuda_library(name: str) -> bool:
    """Link names of NVIDIA libraries hipport has no counterpart for (cupti,
    nvjpeg, npp*, nvidia-ml, ...)."""
    return name.startswith(("cu", "nv", "npp")) and name not in ("curses",)


def dropped_message(name: str, lib: DroppedLibrary) -> str:
    """The finding of ``name`` (as written: ``-lcupti``, ``CUDA::nvml``) removed."""
    if not lib.headers:
        return f"{name} removed: {lib.why}"
    return (f"{name} removed from the link: {lib.why}; a source using it stops at "
            f"{', '.join(lib.headers)} (a blocker), the others build without it")
