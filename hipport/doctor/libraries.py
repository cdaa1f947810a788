"""The ROCm libraries a HIP program may need, and what an installation has
of each: headers, the shared library (not just a dangling ``libfoo.so``
symlink from the -dev package), the CMake package, the version."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from hipport.doctor.dpkg import upstream_version
from hipport.doctor.model import Version
from hipport.doctor.rocm import RocmRoot
from hipport.libraries import RocmLibrary, library_table

LIBRARIES: tuple[RocmLibrary, ...] = library_table().rocm
BY_KEY = {lib.key: lib for lib in LIBRARIES}
# Catalogue library -> the ROCm library the default mode converts it to.
BY_CUDA = {lib.key: lib.rocm for lib in library_table().cuda}


def library_of_include(target: str) -> RocmLibrary | None:
    """The library an ``#include`` target belongs to (``hipblas/hipblas.h``)."""
    for lib in LIBRARIES:  # exact names first: hip/hiprtc.h is hipRTC, not HIP
        if target in lib.headers:
            return lib
    for lib in LIBRARIES:
        if any(target.startswith(d) for d in lib.include_dirs):
            return lib
    return None


@dataclass(frozen=True)
class Installed:
    library: RocmLibrary
    header: str | None  # the header found, relative to include/
    shared: Path | None  # the real shared library file
    dangling: tuple[Path, str] | None  # a libfoo.so whose target is missing, and the target
    cmake: Path | None
    version: Version | None  # the library's own version (its version header)
    package: str | None  # the Debian package it came from, when dpkg knows it
    rocm: Version | None  # the ROCm release it belongs to

    @property
    def present(self) -> bool:
        return self.header is not None

    @property
    def complete(self) -> bool:
        return self.present and (self.shared is not None or not self.library.sonames) \
            and (self.cmake is not None or self.library.cmake_config is None)


def probe_library(lib: RocmLibrary, root: RocmRoot) -> Installed:
    header = next((h for h in lib.headers if (root.include / h).is_file()), None)
    shared, dangling = _shared_library(lib, root)
    cmake = _cmake_package(lib, root)
    version = None
    if header is not None and lib.version_header:
        version = header_version(root.include / lib.version_header, lib.version_macros)
    package = lib.debian if lib.debian and lib.debian in root.packages else None
    rocm = upstream_version(root.packages[package]) if package else None
    return Installed(lib, header, shared, dangling, cmake, version, package,
                     rocm if rocm is not None else (root.version if header else None))


def _shared_library(lib: RocmLibrary,
                    root: RocmRoot) -> tuple[Path | None, tuple[Path, str] | None]:
    dangling = None
    for name in lib.sonames:
        for directory in root.lib_dirs:
            link = directory / f"lib{name}.so"
            if link.exists():
                return link.resolve(), None
            if link.is_symlink() and dangling is None:
                dangling = (link, link.readlink().name)
    return None, dangling


def _cmake_package(lib: RocmLibrary, root: RocmRoot) -> Path | None:
    config = lib.cmake_config
    if config is None:
        return None
    for directory in root.cmake_dirs:
        package = directory / config
        for name in (f"{config}-config.cmake", f"{config}Config.cmake"):
            if (package / name).is_file():
                return package / name
    return None


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(\d+)[ \t]*(?://.*|/\*.*)?$", re.M)


def header_version(path: Path, macros: tuple[str, ...]) -> Version | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    values = {k.decode(): int(v) for k, v in _DEFINE.findall(data)}
    if len(macros) == 1 and macros[0] in values:
        code = values[macros[0]]
        return (code // 100000, code // 100 % 1000, code % 100)
    if len(macros) == 3 and all(m in values for m in macros):
        return tuple(values[m] for m in macros)
    return None


def runtime_package(soname_file: str) -> str:
    """Debian's name for the package shipping ``libhipblas.so.2``: libhipblas2
    (a hyphen when the name ends in a digit: libamdhip64.so.6 -> libamdhip64-6)."""
    base, _, rest = soname_file.partition(".so.")
    major = rest.split(".", 1)[0]
    return f"{base}-{major}" if base[-1:].isdigit() else f"{base}{major}"
