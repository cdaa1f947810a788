"""Scan installed HIP/ROCm headers for the identifiers they declare.

Used both by the generator (to keep only HIP names that really exist and to
date them) and by ``tests/catalogue`` (to check every mapped HIP name).
Headers come in *header sets*, one per ROCm release we can read (see
``header_sets``): the evidence for ``rocm_version`` ranges.  Pure standard
library.
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
    # Clang's HIP wrapper headers: from ROCm 6 on, the device math functions
    # are declared there and no longer in hip/amd_detail/amd_math_functions.h.
    "hip": ("hip", "__clang_hip_math.h", "__clang_hip_cmath.h", "__clang_hip_runtime_wrapper.h",
            "__clang_hip_libdevice_declares.h", "__clang_hip_stdlib.h",
            "__clang_cuda_math_forward_declares.h", "__clang_cuda_complex_builtins.h"),
    "hiprtc": ("hip/hiprtc.h",),
    # hipBLAS 2.x (ROCm 6) moved hipblasOperation_t, hipblasStatus_t & co. to
    # hipblas-common/, which hipblas.h and hipblaslt.h include.
    "hipblas": ("hipblas", "hipblas.h", "hipblas-common"),
    "hipblaslt": ("hipblaslt", "hipblaslt-version.h", "hipblaslt-export.h", "hipblas-common"),
    "hiprand": ("hiprand", "rocrand"),
    # The ROCm libraries themselves, the targets of --roc (tools/catalogue/roc.py).
    "rocblas": ("rocblas",),
    "rocrand": ("rocrand",),
    "hipfft": ("hipfft",),
    "hipsparse": ("hipsparse",),
    "hipsolver": ("hipsolver",),
    # --roc's cuSPARSE and cuSOLVER targets; rocSOLVER's handle, stream, status
    # and enums are rocBLAS's.
    "rocsparse": ("rocsparse",),
    "rocsolver": ("rocsolver", "rocblas"),
    "hipcub": ("hipcub",),
    "rocthrust": ("thrust",),
    "rccl": ("rccl",),
    "roctx": ("roctracer",),
    "miopen": ("miopen",),
}

# Libraries none of the header sets has: their names cannot be header-verified.
NOT_PACKAGED: frozenset[str] = frozenset({"roctx"})

# Files and folders that only serve the NVIDIA back end of HIP (a name found
# only there does not exist on AMD), and HIP's tracing tables, which spell
# every API name (also of APIs declared in a header not included): never scanned.
_SKIP_PARTS = ("nvidia_detail", "nvcc_detail", "_nvcc.h", "backend/cub", "hip_prof_str.h",
               "hip_api_trace.hpp")

_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_SUFFIXES = (".h", ".hpp", ".cuh", ".inl", ".hxx", ".inc")

# A deprecation marker, then the declaration it applies to up to its name's
# opening parenthesis: `HIP_DEPRECATED("...") hipError_t hipMallocHost(`.
_DEPRECATED_RE = re.compile(
    r"(?:\b(?:HIP_DEPRECATED|DEPRECATED|HIPSPARSE_DEPRECATED_MSG|HIPSPARSE_DEPRECATED"
    r"|HIPSOLVER_DEPRECATED|HIPFFT_DEPRECATED|HIPBLASLT_DEPRECATED|MIOPEN_DEPRECATED"
    r"|HIPRAND_DEPRECATED|THRUST_DEPRECATED)\b\s*(?:\((?:[^()]|\([^()]*\))*\))?"
    r"|\[\[\s*deprecated\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*\]\]"
    r"|__attribute__\s*\(\(\s*deprecated\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*\)\))"
    r"(?P<decl>[^;{}()#]*?)\b(?P<name>[A-Za-z_]\w*)\s*\(")
_DEFINE_LINE_RE = re.compile(r"^[ \t]*#.*$", re.M)


# Macros a user must define for a header to declare some of its API.
GATES = ("MIOPEN_BETA_API", "HIP_ENABLE_WARP_SYNC_BUILTINS")
_CONDITIONAL_RE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def strip_comments(text: str) -> str:
    return _COMMENT_RE.sub(" ", text)


def gated_names(text: str) -> dict[str, str]:
    """Identifiers ``text`` (comments stripped) declares only inside
    ``#ifdef GATE`` blocks, with their gate."""
    stack: list[str | None] = []
    gated: dict[str, str] = {}
    open_names: set[str] = set()
    for line in text.splitlines():
        m = _CONDITIONAL_RE.match(line)
        if m:
            word, rest = m.groups()
            if word in ("if", "ifdef"):
                stack.append(next((g for g in GATES if re.search(rf"\b{g}\b", rest)), None))
            elif word == "ifndef":
                stack.append(None)
            elif word in ("elif", "else") and stack:
                stack[-1] = None
            elif word == "endif" and stack:
                stack.pop()
            continue
        gate = next((g for g in reversed(stack) if g is not None), None)
        for name in _IDENT_RE.findall(line):
            if gate is None:
                open_names.add(name)
            else:
                gated.setdefault(name, gate)
    return {name: gate for name, gate in gated.items() if name not in open_names}


def deprecated_names(text: str) -> set[str]:
    """Functions that ``text`` (comments stripped) declares deprecated."""
    body = _DEFINE_LINE_RE.sub(" ", text)  # the macros' own definitions are not uses
    return {m.group("name") for m in _DEPRECATED_RE.finditer(body)}


# --- header sets ---------------------------------------------------------------

Release = tuple[int, int]


@dataclass(frozen=True)
class HeaderSet:
    """The headers of one ROCm release: include dirs, the HIP runtime's first."""

    release: Release
    roots: tuple[Path, ...]
    origin: str  # where it was found, for messages

    @property
    def label(self) -> str:
        return f"{self.release[0]}.{self.release[1]}"


def hip_release(root: Path) -> Release | None:
    """HIP major.minor of the runtime headers under ``root``, if any."""
    f = root / "hip" / "hip_version.h"
    if not f.is_file():
        return None
    t = f.read_text(errors="replace")
    a, b = _macro(t, "HIP_VERSION_MAJOR"), _macro(t, "HIP_VERSION_MINOR")
    return (int(a), int(b)) if a and b else None


def clang_hip_dir(sysroot: Path) -> Path | None:
    """The resource include dir of the Clang that ``sysroot``'s hipcc uses
    (Debian: /usr/lib/llvm-N/lib/clang/V/include, N from hipcc's dependency
    on clang-N), which holds Clang's HIP wrapper headers."""
    found = sorted((p.parent for p in sysroot.glob(
        "usr/lib/llvm-*/lib/clang/*/include/__clang_hip_math.h")),
        key=lambda p: _numbers(str(p)), reverse=True)
    wanted = _hipcc_clang_major(sysroot)
    for path in found:
        if wanted is None or f"/llvm-{wanted}/" in str(path):
            return path
    return None


def _hipcc_clang_major(sysroot: Path) -> str | None:
    try:
        status = (sysroot / "var/lib/dpkg/status").read_text(errors="replace")
    except OSError:
        return None
    stanza = re.search(r"^Package: hipcc\n(?:.+\n)*?Depends: (.*)$", status, re.M)
    clang = re.search(r"\bclang-(\d+)\b", stanza.group(1)) if stanza else None
    return clang.group(1) if clang else None


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def system_extra_dirs(repo_root: Path | None) -> list[Path]:
    """Library headers the system HIP is used with: ``HIPPORT_HIP_EXTRA_INCLUDES``
    (colon separated) when set, else the repo's ``.toolchain/rocm-extra``."""
    env = os.environ.get("HIPPORT_HIP_EXTRA_INCLUDES")
    if env is not None:
        dirs = [Path(p) for p in env.split(":") if p]
    elif repo_root is not None:
        dirs = [repo_root / ".toolchain" / "rocm-extra" / "usr" / "include"]
    else:
        dirs = []
    return [d for d in dirs if d.is_dir()]


def toolchain_cache() -> Path:
    return Path(os.environ.get("HIPPORT_TOOLCHAIN_CACHE") or "/var/cache/hipport")


def header_sets(repo_root: Path | None, extra_sysroots: Iterable[Path] = ()) -> list[HeaderSet]:
    """Every ROCm release whose headers are on this machine, oldest first:

    * the system's (``/usr/include``: Debian 12's HIP 5.2) with the library
      headers its compiler is used with (``.toolchain/rocm-extra``);
    * the modern oracles' chroots (``$HIPPORT_TOOLCHAIN_CACHE/rocm-sid``: 6.4;
      ``$HIPPORT_TOOLCHAIN_CACHE/rocm-7.2/root``: 7.2, Debian experimental);
    * unpacked Debian roots given as ``extra_sysroots`` or found under
      ``.toolchain/doctor-roots/*`` (Debian 13's HIP 5.7).

    Each set also holds its Clang's HIP wrapper headers.  Of two roots with
    the same release, the first found wins."""
    candidates: list[tuple[Path, list[Path], str]] = [
        (Path("/"), system_extra_dirs(repo_root), "system"),
        (toolchain_cache() / "rocm-sid", [], "rocm-sid chroot"),
        (toolchain_cache() / "rocm-7.2" / "root", [], "rocm-7.2 chroot"),
    ]
    candidates += [(Path(p), [], str(p)) for p in extra_sysroots]
    if repo_root is not None:
        for root in sorted((repo_root / ".toolchain" / "doctor-roots").glob("*")):
            candidates.append((root, [], f"doctor root {root.name}"))
    sets: dict[Release, HeaderSet] = {}
    for sysroot, extra, origin in candidates:
        include = sysroot / "usr" / "include"
        release = hip_release(include)
        if release is None or release in sets:
            continue
        clang = clang_hip_dir(sysroot)
        roots = [include, *extra, *([clang] if clang else [])]
        sets[release] = HeaderSet(release, tuple(roots), origin)
    return [sets[r] for r in sorted(sets)]


# --- scanning ---------------------------------------------------------------------

def _iter_files(root: Path, sub: str) -> Iterable[Path]:
    path = root / sub
    if path.is_file():
        if not any(s in str(path) for s in _SKIP_PARTS):
            yield path
    elif path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file() and p.name.endswith(_HEADER_SUFFIXES):
                rel = str(p)
                if not any(s in rel for s in _SKIP_PARTS):
                    yield p


# Keywords of every Clang that compiles HIP: no header declares them.
CLANG_KEYWORDS = frozenset({"__restrict__"})


@dataclass
class HipLibraryHeaders:
    """Identifiers and header files of one HIP library across include dirs."""

    name: str
    files: list[Path] = field(default_factory=list)
    identifiers: set[str] = field(default_factory=set)
    deprecated: set[str] = field(default_factory=set)
    header_paths: set[str] = field(default_factory=set)
    version: Release | None = None
    # Names declared by Clang's HIP wrapper headers (HIP's device math from
    # ROCm 6 on), and whether this scan had those headers at all.
    compiler_identifiers: set[str] = field(default_factory=set)
    # name -> the macro without which no header declares it (see GATES)
    gated: dict[str, str] = field(default_factory=dict)

    @property
    def present(self) -> bool:
        return bool(self.files)

    def has(self, name: str) -> bool:
        """True when ``name`` (possibly ``ns::qualified``) is declared."""
        last = name.rsplit("::", 1)[-1]
        return last in self.identifiers or (self.name == "hip" and last in CLANG_KEYWORDS)

    def is_deprecated(self, name: str) -> bool:
        return name.rsplit("::", 1)[-1] in self.deprecated

    @property
    def has_compiler_headers(self) -> bool:
        return any(f.name.startswith("__clang_") for f in self.files)


@dataclass(frozen=True)
class _FileScan:
    identifiers: frozenset[str]
    deprecated: frozenset[str]
    gated: tuple[tuple[str, str], ...]


@lru_cache(maxsize=None)
def _scan_file(path: str) -> _FileScan:
    try:
        text = strip_comments(Path(path).read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return _FileScan(frozenset(), frozenset(), ())
    gated = tuple(sorted(gated_names(text).items())) if any(g in text for g in GATES) else ()
    names = set(_IDENT_RE.findall(text)) | pasted_names(text)
    return _FileScan(frozenset(names), frozenset(deprecated_names(text)), gated)


# HIP declares its vector constructors by token pasting
# (`DECLOP_MAKE_FOUR_COMPONENT(float, float4)` declares `make_float4`).
_MAKE_VECTOR_RE = re.compile(r"\bDECLOP_MAKE_(?:ONE|TWO|THREE|FOUR)_COMPONENT\s*\([^;()]*,"
                             r"\s*([A-Za-z_]\w*)\s*\)")


def pasted_names(text: str) -> set[str]:
    """Names declared by token-pasting macros, which no identifier scan sees."""
    return {"make_" + m.group(1) for m in _MAKE_VECTOR_RE.finditer(text)
            if "#" not in text[text.rfind("\n", 0, m.start()) + 1:m.start()]}  # not a #define


def scan_library(name: str, include_dirs: Iterable[Path],
                 version: Release | None = None) -> HipLibraryHeaders:
    lib = HipLibraryHeaders(name, version=version)
    opened: set[str] = set()
    gated: dict[str, str] = {}
    for root in include_dirs:
        for sub in LIBRARY_PATHS.get(name, ()):
            for f in _iter_files(root, sub):
                lib.files.append(f)
                lib.header_paths.add(str(f.relative_to(root)))
                scanned = _scan_file(str(f))
                open_names = scanned.identifiers - {n for n, _ in scanned.gated}
                lib.identifiers |= scanned.identifiers
                lib.deprecated |= scanned.deprecated
                opened |= open_names
                gated.update(scanned.gated)
                if f.name.startswith("__clang_"):
                    lib.compiler_identifiers |= scanned.identifiers
    lib.gated = {n: g for n, g in gated.items() if n not in opened}
    # A library is only "present" with its own headers, not with the shared
    # hipblas-common folder or Clang's wrappers alone.
    if not any(_own_file(name, f) for f in lib.files):
        lib.files.clear()
    return lib


def _own_file(name: str, path: Path) -> bool:
    return "hipblas-common" not in path.parts and not path.name.startswith("__clang_")


def scan_set(name: str, headers: HeaderSet) -> HipLibraryHeaders:
    return scan_library(name, headers.roots, headers.release)


def all_header_paths(include_dirs: Iterable[Path]) -> set[str]:
    """Every header path (relative to an include dir) of every HIP library."""
    out: set[str] = set()
    for root in include_dirs:
        for subs in LIBRARY_PATHS.values():
            for sub in subs:
                for f in _iter_files(root, sub):
                    out.add(str(f.relative_to(root)))
    return out


def parse_version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def _macro(text: str, name: str) -> str | None:
    m = re.search(r"#\s*define\s+" + re.escape(name) + r"\s+(\d+)", text)
    return m.group(1) if m else None
