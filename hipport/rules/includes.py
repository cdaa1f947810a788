"""`#include` targets: CUDA headers become HIP headers, without duplicates."""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.parse.model import Role
from hipport.rules import Context, RuleRole, file_rule
from hipport.rules.emulation import APPLIED_CODES, EMULATION_CODES, emulated
from hipport.rules.implicit_includes import (
    IMPLICIT_INCLUDE,
    include_lines,
    message,
    missing_headers,
)
from hipport.source import newline_of
from hipport.table.roc import counterpart
from hipport.table.schema import Status
from hipport.table.versions import Availability, for_target, release_text, unavailable_reason

# System headers with these prefixes belong to CUDA or its libraries.
CUDA_HEADER_PREFIXES = (
    "cuda", "cu_", "cublas", "curand", "cufft", "cusparse", "cusolver", "cudnn", "nccl",
    "nvrtc", "nvToolsExt", "nvtx3/", "cooperative_groups", "cub/", "sm_", "device_",
    "crt/", "mma.h", "nvml", "nvJitLink", "nvPTXCompiler", "nvfatbin", "nvjpeg", "npp", "cupti",
    "cutensor", "cufile", "cudla",
)


@file_rule("includes", codes=("HP302", "HP303", "HP511", "HP513", "HP900", "HP901", "HP903",
                              "HP905", *EMULATION_CODES), role=RuleRole.REWRITE)
def rewrite_includes(ctx: Context) -> Iterator[Finding]:
    seen: set[tuple[int, str]] = set()  # (conditional block, final target)
    included: set[str] = set()  # HIP headers included so far, in any block
    complex_chosen = False  # HIP_COMPLEX_MACRO written before a rocBLAS include above
    # In file order: which of two includes is the duplicate must not depend on the
    # order the front end happened to find them (tree-sitter captures are unordered).
    for inc in sorted(ctx.analysis.includes, key=lambda i: i.start):
        entry = ctx.table.lookup(inc.target)
        if entry is None or entry.kind != "header":
            seen.add((inc.block, inc.target))
            if inc.system and inc.target.startswith(CUDA_HEADER_PREFIXES):
                yield Finding("HP900", f"<{inc.target}> looks like a CUDA header but is not in "
                              "the catalogue; left unchanged", inc.start, inc.end,
                              cuda_name=inc.target, library="headers")
            continue
        entry, availability = for_target(entry, ctx.settings.rocm_version)
        common = {"cuda_name": entry.cuda, "hip_name": entry.hip, "library": entry.library}
        note = f": {entry.note}" if entry.note else ""
        if not entry.status.converts or entry.hip is None:
            polyfill = emulated(entry.cuda, ctx.settings, inc.start, inc.end,
                                library=entry.library)
            if polyfill is not None:
                # The polyfill header provides what the header declared: the
                # include goes (the header is included where the uses are).
                fix = None
                if polyfill.code in APPLIED_CODES and inc.alone_on_line:
                    fix = Fix((Edit(inc.line_start, inc.line_end, b""),),
                              title=f"Remove #include <{entry.cuda}>")
                yield replace(polyfill, fix=fix)
                continue
            code = "HP903" if entry.status is Status.REMOVED else "HP901"
            yield Finding(code, f"<{entry.cuda}> has no {counterpart(entry)}{note}",
                          inc.start, inc.end, None, **common, note=entry.note)
            continue
        target = ctx.settings.rocm_version
        if target is not None and availability is not Availability.AVAILABLE:
            seen.add((inc.block, inc.target))
            yield Finding("HP905", unavailable_reason(entry, availability, target) + note,
                          inc.start, inc.end, None, **common)
            continue
        key = (inc.block, entry.hip)
        if key in seen and inc.alone_on_line:
            fix = Fix((Edit(inc.line_start, inc.line_end, b""),), title="Remove duplicate include")
            yield Finding("HP303", f"<{entry.cuda}> becomes <{entry.hip}>, already included "
                          "above; line removed", inc.start, inc.end, fix=fix, **common)
            continue
        seen.add(key)
        if entry.hip == entry.cuda:
            continue
        edit = Edit(inc.start, inc.end, entry.hip.encode())
        message = f"<{entry.cuda}> -> <{entry.hip}>"
        # The macro's lines go above the directive's line: anything may follow
        # the directive (a comment), nothing but blanks precede it.
        if entry.hip.startswith(_ROCBLAS_COMPLEX_HEADERS) and not complex_chosen \
                and ctx.data[inc.line_start:inc.start].lstrip().startswith(b"#"):
            complex_chosen = True
            newline = newline_of(ctx.data)
            edit = Edit(inc.line_start, inc.end, newline.join(_HIP_COMPLEX_LINES) + newline
                        + ctx.data[inc.line_start:inc.start] + entry.hip.encode())
            message += f", after #define {HIP_COMPLEX_MACRO} (rocBLAS takes HIP's complex types)"
        fix = Fix((edit,), title=f"Include <{entry.hip}>")
        yield Finding("HP302", message, inc.start, inc.end, fix=fix, **common)
        if entry.cxx_only and _is_c_file(ctx):
            yield Finding("HP511", f"<{entry.hip}> compiles only as C++: this C file must be "
                          "compiled as C++ to include it", inc.start, inc.end)
        clash = _CONFLICTING_HEADERS.get(entry.hip)
        if clash is not None and clash in included and target is not None \
                and target >= _CONFLICT_SINCE:
            yield Finding("HP513", f"<{entry.hip}> and <{clash}> (included above) both define "
                          f"internal::half_to_f16 & co. on ROCm {release_text(target)}: the "
                          "converted unit will not compile; split it into one file per header",
                          inc.start, inc.end, cuda_name=entry.cuda, hip_name=entry.hip,
                          library=entry.library)
        included.add(entry.hip)


# rocBLAS's complex types are classes of its own under hipcc unless this macro is
# defined before rocblas.h (rocsolver.h includes it); then they are HIP's
# hipFloatComplex/hipDoubleComplex, which cuComplex code converts to, so
# cublasCgemm & co. become rocblas_cgemm & co. by name (--roc).
HIP_COMPLEX_MACRO = "ROCM_MATHLIBS_API_USE_HIP_COMPLEX"
_HIP_COMPLEX_LINES = (f"#ifndef {HIP_COMPLEX_MACRO}".encode(),
                      f"#define {HIP_COMPLEX_MACRO}".encode(), b"#endif")
_ROCBLAS_COMPLEX_HEADERS = ("rocblas/", "rocsolver/")

# HIP headers that redefine each other's helpers when one unit includes both:
# ROCm 7.2's hip_fp4.h and hip_fp6.h each define internal::half_to_f16 & co.
# (a ROCm bug; the release they first shipped in, so no older target has them).
_CONFLICTING_HEADERS = {"hip/hip_fp4.h": "hip/hip_fp6.h", "hip/hip_fp6.h": "hip/hip_fp4.h"}
_CONFLICT_SINCE = (7, 2)


def _is_c_file(ctx: Context) -> bool:
    return ctx.path is not None and ctx.path.suffix == ".c"


RUNTIME_HEADERS = frozenset({"hip/hip_runtime.h", "hip/hip_runtime_api.h"})
FULL_RUNTIME = "hip/hip_runtime.h"
COOPERATIVE_GROUPS = "hip/hip_cooperative_groups.h"
# nvcc compiles these with an implicit #include <cuda_runtime.h>; headers may
# have relied on whoever included them (or on that implicit include).
_CUDA_SOURCES = frozenset({".cu"})
_HEADERS = frozenset({".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl"})
_RUNTIME_LIBRARIES = frozenset({"runtime", "driver"})


@file_rule("runtime-include", codes=("HP306", IMPLICIT_INCLUDE), role=RuleRole.REWRITE)
def add_runtime_include(ctx: Context) -> Iterator[Finding]:
    """nvcc includes cuda_runtime.h into every .cu file; hipcc includes
    nothing.  A file with kernel code, and a .cu file or header that uses the
    runtime API, gets #include <hip/hip_runtime.h> unless it includes a HIP
    runtime header itself."""
    insertion = runtime_insertion(ctx)
    if insertion is None:
        return
    at, why = insertion
    newline = newline_of(ctx.data)
    # The standard headers ROCm 7's runtime header no longer includes go in
    # the same place (two insertions at one point would conflict).
    standard = missing_headers(ctx)
    fix = Fix((Edit(at, at, b"#include <hip/hip_runtime.h>" + newline +
                    include_lines(standard, newline)),),
              title="Include <hip/hip_runtime.h>")
    yield Finding("HP306", f"{why} without a runtime include: #include <hip/hip_runtime.h> "
                  "added (nvcc includes cuda_runtime.h implicitly, hipcc does not)", at, at,
                  fix=fix)
    for header, name in standard:
        yield Finding(IMPLICIT_INCLUDE, message(header, name) + ", with the runtime include",
                      at, at)


def runtime_insertion(ctx: Context) -> tuple[int, str] | None:
    """Where #include <hip/hip_runtime.h> goes, and why, when the file needs
    it and has none."""
    at = ctx.analysis.include_insertion
    if at is None:
        return None
    own = ctx.analysis.own_hip
    # An include in a branch only the project's switch selects (`#ifdef
    # USE_HIP`) is not seen by the converted build, which does not define it.
    finals = sorted(((inc.start, _final_header(ctx, inc.target)) for inc in ctx.analysis.includes
                     if own is None or not own.switched(inc.start)))
    why = _needs_runtime(ctx)
    # Kernel code needs the whole runtime (blockIdx, __syncthreads):
    # <hip/hip_runtime_api.h>, which <cuda_runtime_api.h> becomes, is not enough.
    enough = {FULL_RUNTIME} if ctx.analysis.device_syntax else RUNTIME_HEADERS
    groups = next((start for start, final in finals if final == COOPERATIVE_GROUPS), None)
    if groups is not None:
        # HIP 5.x's hip_cooperative_groups.h uses hipBlockDim_z & co. without
        # including what declares them: hip_runtime.h must come first.
        if any(final == FULL_RUNTIME and start < groups for start, final in finals) \
                or at > groups:
            return None
        why = why or "<hip/hip_cooperative_groups.h> (HIP 5.x needs hip_runtime.h before it)"
    elif why is None or any(final in enough for _, final in finals):
        return None
    return at, why


def _final_header(ctx: Context, target: str) -> str:
    """The header an include names once converted."""
    entry = ctx.table.lookup(target)
    if entry is not None and entry.kind == "header" and entry.hip is not None \
            and entry.status.converts:
        return entry.hip
    return target


def _needs_runtime(ctx: Context) -> str | None:
    if ctx.analysis.device_syntax:
        return "kernel code"
    suffix = ctx.path.suffix.lower() if ctx.path is not None else ""
    if suffix not in _CUDA_SOURCES and suffix not in _HEADERS:
        return None  # .cpp: compiled without an implicit include by nvcc's host compiler too
    for ref in ctx.analysis.references:
        if ref.role is Role.PP_CONDITION:
            continue  # `#ifdef __CUDA_RUNTIME_H__` asks whether it is included
        entry = ctx.table.lookup(ref.name)
        if entry is not None and entry.library in _RUNTIME_LIBRARIES and entry.kind != "header" \
                and entry.status.converts and entry.hip is not None:
            what = "header" if suffix in _HEADERS else ".cu file"
            return f"{what} using the runtime API (`{ref.name}`)"
    return None


@file_rule("implicit-includes", codes=(IMPLICIT_INCLUDE,), role=RuleRole.REWRITE)
def add_implicit_includes(ctx: Context) -> Iterator[Finding]:
    headers = missing_headers(ctx)
    if not headers or runtime_insertion(ctx) is not None:
        return  # none, or the runtime include the file gets carries them (HP306)
    lines = [inc for inc in ctx.analysis.includes if not inc.conditional]
    at = max(inc.line_end for inc in lines) if lines else ctx.analysis.include_insertion
    if at is None or (at > 0 and ctx.data[at - 1:at] != b"\n"):
        return  # nowhere to put a line (the last include ends the file)
    newline = newline_of(ctx.data)
    names = ", ".join(f"<{h}>" for h, _ in headers)
    fix = Fix((Edit(at, at, include_lines(headers, newline)),), title=f"Include {names}")
    yield Finding(IMPLICIT_INCLUDE, "; ".join(message(h, n) for h, n in headers), at, at,
                  fix=fix)
