"""Extract the public CUDA names of each library from CUDA headers and
read/write ``mappings/inventory/<library>.txt``."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .cscan import Declarations, scan
from .libraries import LIBRARIES, Library, is_public

KIND_ORDER = {"function": 0, "device_function": 0, "type": 1, "enum": 2, "macro": 3}

_VERSION_MACROS: dict[str, tuple[str, ...]] = {
    "cublas": ("CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH"),
    "cublaslt": ("CUBLAS_VER_MAJOR", "CUBLAS_VER_MINOR", "CUBLAS_VER_PATCH"),
    "curand": ("CURAND_VER_MAJOR", "CURAND_VER_MINOR", "CURAND_VER_PATCH"),
    "cufft": ("CUFFT_VER_MAJOR", "CUFFT_VER_MINOR", "CUFFT_VER_PATCH"),
    "cusparse": ("CUSPARSE_VER_MAJOR", "CUSPARSE_VER_MINOR", "CUSPARSE_VER_PATCH"),
    "cusolver": ("CUSOLVER_VER_MAJOR", "CUSOLVER_VER_MINOR", "CUSOLVER_VER_PATCH"),
    "nccl": ("NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"),
    "cudnn": ("CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"),
}


@dataclass
class LibraryInventory:
    library: str
    source: str = ""                       # e.g. "CUDA 13.0 toolkit headers"
    names: dict[str, str] = field(default_factory=dict)     # name -> kind
    origin: dict[str, str] = field(default_factory=dict)    # name -> header
    aliases: dict[str, str] = field(default_factory=dict)   # macro -> target


def find_headers(include_dirs: list[Path], globs: tuple[str, ...]) -> list[tuple[Path, Path]]:
    """(include dir, file) pairs; the first include dir holding a path wins."""
    seen: set[str] = set()
    out: list[tuple[Path, Path]] = []
    for g in globs:
        for root in include_dirs:
            hits = sorted(root.glob(g))
            for f in hits:
                rel = str(f.relative_to(root))
                if f.is_file() and rel not in seen:
                    seen.add(rel)
                    out.append((root, f))
            if hits:
                break
    return out


def _macro_value(text: str, name: str) -> str | None:
    m = re.search(r"#\s*define\s+" + name + r"\s+(\d+)", text)
    return m.group(1) if m else None


def cuda_version(include_dirs: list[Path]) -> str:
    for root in include_dirs:
        f = root / "cuda.h"
        if f.is_file():
            v = _macro_value(f.read_text(errors="replace"), "CUDA_VERSION")
            if v:
                n = int(v)
                return f"{n // 1000}.{n % 1000 // 10}"
    return "unknown"


def library_version(lib: str, files: list[Path]) -> str | None:
    macros = _VERSION_MACROS.get(lib)
    if not macros:
        return None
    text = "".join(f.read_text(errors="replace") for f in files)
    parts = [_macro_value(text, m) for m in macros]
    if parts[0] is None:
        return None
    return ".".join(p for p in parts if p is not None)


def extract(lib: Library, include_dirs: list[Path]) -> LibraryInventory:
    inv = LibraryInventory(lib.name)
    files = find_headers(include_dirs, lib.headers)
    ver = library_version(lib.name, [f for _, f in files])
    inv.source = f"CUDA {cuda_version(include_dirs)}" + (f", {lib.name} {ver}" if ver else "")
    for root, f in files:
        decl: Declarations = scan(f.read_text(encoding="utf-8", errors="replace"))
        header = str(f.relative_to(root))
        candidates: list[tuple[str, str]] = []
        candidates += [(n, lib.functions_kind) for n in decl.functions]
        candidates += [(n, "type") for n in decl.types]
        candidates += [(n, "enum") for n in decl.enumerators]
        if lib.macros:
            for n in decl.macros:
                target = decl.macro_aliases.get(n)
                kind = "macro"
                if target and target in decl.functions:
                    kind = lib.functions_kind
                    inv.aliases[n] = target
                candidates.append((n, kind))
        for name, kind in candidates:
            if lib.qualify and kind != "macro":
                name = lib.qualify + name
            if not is_public(lib, name):
                continue
            if lib.name == "device" and kind == "macro" and not name.startswith("CUDART_"):
                continue
            old = inv.names.get(name)
            if old is None or KIND_ORDER[kind] < KIND_ORDER[old]:
                inv.names[name] = kind
                inv.origin.setdefault(name, header)
    return inv


# --- headers -----------------------------------------------------------------

HEADER_GLOBS = (
    "*.h", "crt/math_functions.h", "crt/device_functions.h", "crt/host_defines.h",
    "cooperative_groups/*.h", "nvtx3/*.h", "cub/*.cuh", "thrust/*.h",
    "thrust/iterator/*.h", "thrust/execution_policy.h",
)
_SKIP_HEADERS = re.compile(
    r"^(generated_\w+|cupti\w*|nvperf\w*|\w*Typedefs|cudart_platform|fatbinary_section|"
    r"cuda_stdint|nv_decode|nvvm|cuda_awbarrier_helpers|cuda_pipeline_helpers|"
    r"curand_mtgp32dc_p_11213|curand_precalc|nvToolsExtPayloadHelper|nccl_device\w*|"
    r"cudnn\w*_v9|cusolverSp_LOWLEVEL_PREVIEW)\.h$"
)


def extract_headers(include_dirs: list[Path]) -> LibraryInventory:
    inv = LibraryInventory("headers", source=f"CUDA {cuda_version(include_dirs)}")
    for root in include_dirs:
        for g in HEADER_GLOBS:
            for f in sorted(root.glob(g)):
                rel = str(f.relative_to(root))
                if f.is_file() and not _SKIP_HEADERS.match(f.name) and rel not in inv.names:
                    inv.names[rel] = "header"
    return inv


# --- inventory files -----------------------------------------------------------

def write_inventory(path: Path, inv: LibraryInventory) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Public CUDA names of library '{inv.library}', one per line.",
        f"# read-from: {inv.source}",
        "# Generated by `python -m tools.catalogue`; the coverage test checks every",
        "# name here has an entry under mappings/.",
    ]
    lines += sorted(inv.names)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_inventory(path: Path) -> tuple[str, list[str]]:
    source = ""
    names: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# read-from:"):
            source = line.split(":", 1)[1].strip()
        elif line and not line.startswith("#"):
            names.append(line.strip())
    return source, names


def extract_all(include_dirs: list[Path]) -> dict[str, LibraryInventory]:
    out = {lib.name: extract(lib, include_dirs) for lib in LIBRARIES}
    # a name belongs to the first library that declares it
    seen: set[str] = set()
    for lib in LIBRARIES:
        inv = out[lib.name]
        for name in list(inv.names):
            if name in seen:
                del inv.names[name]
            else:
                seen.add(name)
    out["headers"] = extract_headers(include_dirs)
    return out
