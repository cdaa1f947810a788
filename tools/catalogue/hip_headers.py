"""Scan installed HIP/ROCm headers for the identifiers they declare.

Used both by the generator (to keep only HIP names that really exist) and by
``tests/catalogue`` (to check every mapped HIP name).  Pure standard library.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

# hip_library -> sub-paths (relative to an include dir) holding its headers.
LIBRARY_PATHS: dict[str, tuple[str, ...]] = {
    "hip": ("hip",),
    "hiprtc": ("hip/hiprtc.h",),
    "hipblas": ("hipblas", "hipblas.h"),
    "hipblaslt": ("hipblaslt",),
    "hiprand": ("hiprand", "rocrand"),
    "hipfft": ("hipfft",),
    "hipsparse": ("hipsparse",),
    "hipsolver": ("hipsolver",),
    "hipcub": ("hipcub",),
    "rocthrust": ("thrust",),
    "rccl": ("rccl",),
    "roctx": ("roctracer",),
    "miopen": ("miopen",),
}

# Libraries Debian (12 or 13) does not package: names cannot be header-verified.
NOT_IN_DEBIAN: frozenset[str] = frozenset({"miopen", "hipblaslt", "roctx"})

# Files and folders that only serve the NVIDIA back end of HIP: a name found
# only there does not exist on AMD, so they are never scanned.
_SKIP_PARTS = ("nvidia_detail", "nvcc_detail", "_nvcc.h", "backend/cub")

_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".inl", ".hxx", ".inc")


def default_include_dirs(repo_root: Path | None = None) -> list[Path]:
    """Include dirs in priority order: /usr/include, the repo's fetched
    toolchain, then HIPPORT_HIP_EXTRA_INCLUDES (colon separated)."""
    dirs: list[Path] = [Path("/usr/include")]
    if repo_root is not None:
        extra = repo_root / ".toolchain" / "rocm-extra" / "usr" / "include"
        if extra.is_dir():
            dirs.append(extra)
    env = os.environ.get("HIPPORT_HIP_EXTRA_INCLUDES", "")
    dirs.extend(Path(p) for p in env.split(":") if p)
    seen: set[Path] = set()
    out: list[Path] = []
    for d in dirs:
        if d.is_dir() and d not in seen:
            seen.add(d)
            out.append(d)
    return out


def _iter_files(root: Path, sub: str) -> Iterable[Path]:
    path = root / sub
    if path.is_file():
        yield path
    elif path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file() and p.name.endswith(_HEADER_SUFFIXES):
                rel = str(p)
                if not any(s in rel for s in _SKIP_PARTS):
                    yield p


def strip_comments(text: str) -> str:
    return _COMMENT_RE.sub(" ", text)


@dataclass
class HipLibraryHeaders:
    """Identifiers and header files of one HIP library across include dirs."""

    name: str
    files: list[Path] = field(default_factory=list)
    identifiers: set[str] = field(default_factory=set)
    header_paths: set[str] = field(default_factory=set)
    version: tuple[int, int] | None = None

    @property
    def present(self) -> bool:
        return bool(self.files)

    def has(self, name: str) -> bool:
        """True when ``name`` (possibly ``ns::qualified``) is declared."""
        last = name.rsplit("::", 1)[-1]
        return last in self.identifiers


@lru_cache(maxsize=None)
def _scan_file(path: str) -> frozenset[str]:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    return frozenset(_IDENT_RE.findall(strip_comments(text)))


def scan_library(name: str, include_dirs: list[Path]) -> HipLibraryHeaders:
    lib = HipLibraryHeaders(name)
    for root in include_dirs:
        for sub in LIBRARY_PATHS.get(name, ()):
            for f in _iter_files(root, sub):
                lib.files.append(f)
                lib.header_paths.add(str(f.relative_to(root)))
                lib.identifiers |= _scan_file(str(f))
    lib.version = installed_rocm_version(name, include_dirs)
    return lib


def all_header_paths(include_dirs: list[Path]) -> set[str]:
    """Every header path (relative to an include dir) of every HIP library."""
    out: set[str] = set()
    for root in include_dirs:
        for subs in LIBRARY_PATHS.values():
            for sub in subs:
                for f in _iter_files(root, sub):
                    out.add(str(f.relative_to(root)))
    return out


# --- versions -------------------------------------------------------------

# Library release -> ROCm release, for the library versions shipped by
# Debian 12 and 13 (the libraries number themselves independently of ROCm).
KNOWN_RELEASES: dict[tuple[str, str], str] = {
    ("hipblas", "0.51"): "5.2",
    ("hipblas", "0.52"): "5.3",
    ("hipblas", "0.53"): "5.4",
    ("hipblas", "0.54"): "5.5",
    ("hipblas", "1.0"): "5.6",
    ("hipblas", "1.1"): "5.7",
    ("hipfft", "1.0"): "6.1",
    ("hipsparse", "2.3.2"): "5.3",
    ("hipsparse", "2.3.8"): "5.7",
    ("hiprand", "2.10.9"): "5.3",
    ("hiprand", "2.10.16"): "5.7",
    ("hipsolver", "1.7"): "5.5",
    ("hipsolver", "1.8"): "5.7",
    ("hipcub", "2.13"): "5.7",
    ("rocthrust", "2.18"): "5.7",
    ("rccl", "2.13"): "5.4",
}

def _release(name: str, major: str, minor: str, patch: str | None) -> str | None:
    if patch is not None:
        rel = KNOWN_RELEASES.get((name, f"{int(major)}.{int(minor)}.{int(patch)}"))
        if rel:
            return rel
    return KNOWN_RELEASES.get((name, f"{int(major)}.{int(minor)}"))


_VERSION_HEADERS: dict[str, tuple[str, str, str]] = {
    # library: (header, major macro, minor macro)
    "hip": ("hip/hip_version.h", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR"),
    "hiprtc": ("hip/hip_version.h", "HIP_VERSION_MAJOR", "HIP_VERSION_MINOR"),
    "hipblas": ("hipblas/hipblas-version.h", "hipblasVersionMajor", "hipblasVersionMinor"),
    "hipfft": ("hipfft/hipfft-version.h", "hipfftVersionMajor", "hipfftVersionMinor"),
    "hipsparse": ("hipsparse/hipsparse-version.h", "hipsparseVersionMajor",
                  "hipsparseVersionMinor"),
    "hipsolver": ("hipsolver/internal/hipsolver-version.h", "hipsolverVersionMajor",
                  "hipsolverVersionMinor"),
    "hipcub": ("hipcub/hipcub_version.hpp", "HIPCUB_VERSION_MAJOR", "HIPCUB_VERSION_MINOR"),
    "rocthrust": ("thrust/rocthrust_version.hpp", "ROCTHRUST_VERSION_MAJOR",
                  "ROCTHRUST_VERSION_MINOR"),
    "rccl": ("rccl/rccl.h", "NCCL_MAJOR", "NCCL_MINOR"),
}


def parse_version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def _macro(text: str, name: str) -> str | None:
    m = re.search(r"#\s*define\s+" + re.escape(name) + r"\s+(\d+)", text)
    return m.group(1) if m else None


def _hip_version(include_dirs: list[Path]) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    for root in include_dirs:
        f = root / "hip" / "hip_version.h"
        if f.is_file():
            t = f.read_text(errors="replace")
            a, b = _macro(t, "HIP_VERSION_MAJOR"), _macro(t, "HIP_VERSION_MINOR")
            if a and b:
                v = (int(a), int(b))
                best = v if best is None or v > best else best
    return best


def installed_rocm_version(name: str, include_dirs: list[Path]) -> tuple[int, int] | None:
    """Newest ROCm release whose headers for ``name`` are installed."""
    best: tuple[int, int] | None = None
    spec = _VERSION_HEADERS.get(name)
    if name == "hiprand":
        for root in include_dirs:
            f = root / "hiprand" / "hiprand_version.h"
            if f.is_file():
                raw = _macro(f.read_text(errors="replace"), "HIPRAND_VERSION")
                if raw:
                    n = int(raw)
                    key = ("hiprand", f"{n // 100000}.{n // 100 % 1000}.{n % 100}")
                    rel = KNOWN_RELEASES.get(key)
                    if rel:
                        v = parse_version(rel)
                        cand = (v[0], v[1])
                        best = cand if best is None or cand > best else best
    elif spec is not None:
        header, maj, mnr = spec
        for root in include_dirs:
            f = root / header
            if not f.is_file():
                continue
            t = f.read_text(errors="replace")
            a, b = _macro(t, maj), _macro(t, mnr)
            if not (a and b):
                continue
            if name in ("hip", "hiprtc"):
                cand = (int(a), int(b))
            else:
                pmac = mnr.replace("Minor", "Patch").replace("MINOR", "PATCH")
                rel = _release(name, a, b, _macro(t, pmac))
                if rel is None:
                    continue
                v = parse_version(rel)
                cand = (v[0], v[1])
            best = cand if best is None or cand > best else best
    if best is None:
        best = _hip_version(include_dirs)
    return best


def scan_per_root(name: str, include_dirs: list[Path]) -> list[HipLibraryHeaders]:
    """One scan per include dir that holds the library, oldest version first."""
    scans = [scan_library(name, [d]) for d in include_dirs]
    scans = [s for s in scans if s.present]
    return sorted(scans, key=lambda s: s.version or (0, 0))
