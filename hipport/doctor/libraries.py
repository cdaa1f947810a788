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


@dataclass(frozen=True)
class RocmLibrary:
    key: str  # the catalogue's ``hip_library`` name (mappings/*.yaml)
    name: str
    headers: tuple[str, ...]  # any one present will do (newest layout first)
    include_dirs: tuple[str, ...]  # include targets under these belong to it
    sonames: tuple[str, ...]  # libNAME.so; () for header-only libraries
    cmake: str | None  # CMake config package directory
    version_header: str | None
    # (major, minor, patch) macro names, or one macro encoding
    # major * 100000 + minor * 100 + patch (rocRAND's scheme)
    version_macros: tuple[str, ...]
    debian: str | None  # Debian's -dev package; None: not packaged in Debian
    rocm_package: str  # the package name in AMD's ROCm repositories
    cuda: tuple[str, ...]  # catalogue libraries it stands in for
    debian_since: int = 12  # first Debian release with the package (14: only unstable so far)

    def install_hint(self, debian: int | None = None) -> str:
        """How to install it; ``debian`` is the machine's Debian release, if any."""
        amd = f"AMD's ROCm repositories: {self.rocm_package}"
        if not self.debian:
            return f"install {self.rocm_package} from AMD's ROCm repositories (not in Debian)"
        if debian is not None and debian < self.debian_since:
            where = f"Debian {self.debian_since}" if self.debian_since <= 13 else "Debian unstable"
            return f"not packaged in Debian {debian} ({where} has {self.debian}); {amd}"
        return f"apt install {self.debian} ({amd})"


def _triple(prefix: str) -> tuple[str, str, str]:
    return (f"{prefix}Major", f"{prefix}Minor", f"{prefix}Patch")


def _upper(prefix: str) -> tuple[str, str, str]:
    return (f"{prefix}_MAJOR", f"{prefix}_MINOR", f"{prefix}_PATCH")


LIBRARIES: tuple[RocmLibrary, ...] = (
    RocmLibrary("hip", "HIP runtime", ("hip/hip_runtime.h",), ("hip/",), ("amdhip64",), "hip",
                "hip/hip_version.h", _upper("HIP_VERSION"), "libamdhip64-dev",
                "hip-runtime-amd",
                ("runtime", "driver", "device", "cooperative_groups", "cucomplex", "headers")),
    RocmLibrary("hipblas", "hipBLAS", ("hipblas/hipblas.h", "hipblas.h"), ("hipblas/",),
                ("hipblas",), "hipblas", "hipblas/hipblas-version.h", _triple("hipblasVersion"),
                "libhipblas-dev", "hipblas-dev", ("cublas",), 13),
    RocmLibrary("hipblaslt", "hipBLASLt", ("hipblaslt/hipblaslt.h",), ("hipblaslt/",),
                ("hipblaslt",), "hipblaslt", "hipblaslt/hipblaslt-version.h",
                _upper("HIPBLASLT_VERSION"), "libhipblaslt-dev", "hipblaslt-dev", ("cublaslt",),
                14),
    RocmLibrary("hipfft", "hipFFT", ("hipfft/hipfft.h", "hipfft.h"), ("hipfft/",), ("hipfft",),
                "hipfft", "hipfft/hipfft-version.h", _triple("hipfftVersion"), "libhipfft-dev",
                "hipfft-dev", ("cufft",), 13),
    RocmLibrary("hiprand", "hipRAND", ("hiprand/hiprand.h", "hiprand.h"), ("hiprand/",),
                ("hiprand",), "hiprand", "hiprand/hiprand_version.h", ("HIPRAND_VERSION",),
                "libhiprand-dev", "hiprand-dev", ("curand",)),
    RocmLibrary("hipsparse", "hipSPARSE", ("hipsparse/hipsparse.h", "hipsparse.h"),
                ("hipsparse/",), ("hipsparse",), "hipsparse", "hipsparse/hipsparse-version.h",
                _triple("hipsparseVersion"), "libhipsparse-dev", "hipsparse-dev", ("cusparse",)),
    RocmLibrary("hipsolver", "hipSOLVER", ("hipsolver/hipsolver.h", "hipsolver.h"),
                ("hipsolver/",), ("hipsolver",), "hipsolver",
                "hipsolver/internal/hipsolver-version.h", _triple("hipsolverVersion"),
                "libhipsolver-dev", "hipsolver-dev", ("cusolver",), 13),
    RocmLibrary("hipcub", "hipCUB", ("hipcub/hipcub.hpp",), ("hipcub/",), (), "hipcub",
                "hipcub/hipcub_version.hpp", _upper("HIPCUB_VERSION"), "libhipcub-dev",
                "hipcub-dev", ("cub",), 13),
    RocmLibrary("rocthrust", "rocThrust", ("thrust/rocthrust_version.hpp",), ("thrust/",), (),
                "rocthrust", "thrust/rocthrust_version.hpp", _upper("ROCTHRUST_VERSION"),
                "librocthrust-dev", "rocthrust-dev", ("thrust",), 13),
    RocmLibrary("rocprim", "rocPRIM", ("rocprim/rocprim.hpp",), ("rocprim/",), (), "rocprim",
                "rocprim/rocprim_version.hpp", _upper("ROCPRIM_VERSION"), "librocprim-dev",
                "rocprim-dev", ()),
    RocmLibrary("rccl", "RCCL", ("rccl/rccl.h", "rccl.h"), ("rccl/",), ("rccl",), "rccl",
                "rccl/rccl.h", ("NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"), "librccl-dev",
                "rccl-dev", ("nccl",), 13),
    RocmLibrary("miopen", "MIOpen", ("miopen/miopen.h",), ("miopen/",), ("MIOpen",), "miopen",
                "miopen/version.h", _upper("MIOPEN_VERSION"), "libmiopen-dev", "miopen-hip-dev",
                ("cudnn",), 14),
    # hipRTC lives in libamdhip64 before ROCm 6, in libhiprtc from 6.0 on.
    RocmLibrary("hiprtc", "hipRTC", ("hip/hiprtc.h",), (), ("hiprtc", "amdhip64"), None,
                "hip/hip_version.h", _upper("HIP_VERSION"), "libamdhip64-dev", "hip-dev",
                ("nvrtc",)),
    RocmLibrary("roctx", "rocTX (roctracer)", ("roctracer/roctx.h",), ("roctracer/",),
                ("roctx64",), None, None, (), None, "roctracer-dev", ("nvtx",)),
)
BY_KEY = {lib.key: lib for lib in LIBRARIES}
BY_CUDA = {cuda: lib for lib in LIBRARIES for cuda in lib.cuda}


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
            and (self.cmake is not None or self.library.cmake is None)


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
    if lib.cmake is None:
        return None
    for directory in root.cmake_dirs:
        package = directory / lib.cmake
        for name in (f"{lib.cmake}-config.cmake", f"{lib.cmake}Config.cmake"):
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
