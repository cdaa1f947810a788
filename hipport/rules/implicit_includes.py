"""Standard headers nvcc gives every .cu file and ROCm 7's hipcc does not.

CUDA's runtime header pulls in <stdio.h>, <string.h>, <assert.h> and (through
libstdc++) <thread>, and nvcc includes it into every .cu file, so CUDA code
calls printf or memcpy with no include of its own.  HIP's hip_runtime.h
included the same headers up to ROCm 6.4; ROCm 7 dropped them (7.2's
hip_runtime.h includes none of the four), so such a file stops at
``use of undeclared identifier 'printf'``.  The header is added where the
file uses a name of it and includes it in no form.

Likewise a CUDA library header that includes one its HIP counterpart does
not: cuBLAS's API header includes <cuda_fp16.h> and <cuda_bf16.h>, so a file
including <cublas_v2.h> declares ``half *dA`` with no include of its own;
hipblas.h includes neither (every ROCm), and the converted file stopped at
``unknown type name 'half'``."""
from __future__ import annotations

import re

from hipport.parse.conditions import blank
from hipport.rules import Context

IMPLICIT_INCLUDE = "HP319"
# The first ROCm whose hip_runtime.h no longer includes them.
DROPPED_IN = (7, 0)
# header -> (the forms that count as including it, the names that need it)
_HEADERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "stdio.h": (("stdio.h", "cstdio"),
                ("printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsnprintf",
                 "puts", "fputs", "putchar", "fputc", "fflush", "fopen", "fclose", "fread",
                 "fwrite", "fgets", "fscanf", "scanf", "sscanf", "perror", "getchar", "stdout",
                 "stderr", "stdin", "FILE")),
    "string.h": (("string.h", "cstring"),
                 ("memset", "memcpy", "memcmp", "memmove", "memchr", "strlen", "strcmp",
                  "strncmp", "strcpy", "strncpy", "strcat", "strncat", "strchr", "strrchr",
                  "strstr", "strerror", "strtok")),
    "assert.h": (("assert.h", "cassert"), ("assert",)),
    "thread": (("thread",), ("std::thread", "std::this_thread")),
}
# CUDA headers that include, besides their own API, a header whose names a
# file then uses freely -> (the HIP header that declares them, the forms that
# count as including it, the names).
_FP16 = (("cuda_fp16.h", "cuda_bf16.h", "hip/hip_fp16.h", "hip/hip_bf16.h", "mma.h"),
         ("half", "half2", "__half", "__half2", "__float2half", "__float2half_rn",
          "__half2float", "__floats2half2_rn", "__float2half2_rn", "__half2half2",
          "__low2float", "__high2float", "__hadd", "__hmul", "__hfma", "__hadd2", "__hmul2",
          "__hfma2"))
_BF16 = (("cuda_bf16.h", "hip/hip_bf16.h"),
         ("__nv_bfloat16", "nv_bfloat16", "__nv_bfloat162", "nv_bfloat162", "__float2bfloat16",
          "__float2bfloat16_rn", "__bfloat162float", "__floats2bfloat162_rn"))
_CUBLAS = ("cublas_v2.h", "cublas_api.h", "cublas.h", "cublasLt.h", "cublasXt.h")
_VIA_LIBRARY: dict[str, tuple[tuple[str, ...], tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "hip/hip_fp16.h": (_CUBLAS, _FP16),
    "hip/hip_bf16.h": (_CUBLAS, _BF16),
}
_NVCC_FILES = frozenset({".cu", ".cuh"})
_HEADER_FILES = frozenset({".h", ".hh", ".hpp", ".hxx", ".inl"})


def _pattern(names: tuple[str, ...]) -> re.Pattern[bytes]:
    """A use of one of ``names``: ``std::thread`` as such, ``printf`` as a
    word that is no member (``.printf``, ``->printf``)."""
    if all(n.startswith("std::") for n in names):
        alternatives = b"|".join(re.escape(n[5:].encode()) for n in names)
        return re.compile(rb"\bstd\s*::\s*(" + alternatives + rb")\b")
    alternatives = b"|".join(re.escape(n.encode()) for n in names)
    return re.compile(rb"(?<![\w.])(?<!->)(" + alternatives + rb")\b")


_PATTERNS = {header: _pattern(names) for header, (_, names) in _HEADERS.items()}
_LIBRARY_PATTERNS = {header: re.compile(rb"(?<![\w.])(?<!->)(?<!::)("
                                        + b"|".join(re.escape(n.encode()) for n in names)
                                        + rb")\b")
                     for header, (_, (_, names)) in _VIA_LIBRARY.items()}
_QUALIFIER = re.compile(rb"(\w+)\s*::\s*$")
_WORD_BEFORE = re.compile(rb"(\w+)\s*$")
_EXPRESSION_KEYWORDS = frozenset({b"return", b"else", b"do", b"case", b"throw", b"co_return",
                                  b"co_yield"})


def applies(ctx: Context) -> bool:
    target = ctx.settings.rocm_version
    if target is not None and tuple(target[:2]) < DROPPED_IN:
        return False
    if ctx.path is None:
        return False  # a text with no file name (the stability pass): nothing nvcc gave it
    suffix = ctx.path.suffix.lower()
    return suffix in _NVCC_FILES or (suffix in _HEADER_FILES and ctx.analysis.device_syntax)


def missing_headers(ctx: Context) -> list[tuple[str, str]]:
    """(header, the first name that needs it) for each header the file uses
    and does not include."""
    included = {inc.target for inc in ctx.analysis.includes}
    found = _via_libraries(ctx, included)
    if not applies(ctx):
        return found
    code = blank(ctx.data)
    for header, (forms, _) in _HEADERS.items():
        if included.intersection(forms):
            continue
        name = _first_use(code, _PATTERNS[header])
        if name is not None:
            found.append((header, name))
    return found


def _via_libraries(ctx: Context, included: set[str]) -> list[tuple[str, str]]:
    """The HIP headers a CUDA library header gave the file and its HIP
    counterpart does not, for the names of them the file uses."""
    if ctx.path is not None and ctx.path.suffix.lower() == ".c":
        return []  # C: no half types through cuBLAS's C API either
    found: list[tuple[str, str]] = []
    code: bytes | None = None
    target = ctx.settings.rocm_version
    for header, (includers, (forms, _)) in _VIA_LIBRARY.items():
        if included.isdisjoint(includers) or not included.isdisjoint(forms):
            continue
        if header == "hip/hip_bf16.h" and target is not None and tuple(target[:2]) < (5, 7):
            continue  # no such header before ROCm 5.7 (its names are HP905 there)
        code = blank(ctx.data) if code is None else code
        use = next((m for m in _LIBRARY_PATTERNS[header].finditer(code)
                    if not _declares(code, m.start(), m.end())), None)
        if use is None:
            continue
        name = use.group(1)
        if re.search(rb"(^[ \t]*#[ \t]*define[ \t]+|\b(typedef\b[^;]*|using[ \t]+|struct[ \t]+"
                     rb"|class[ \t]+))" + re.escape(name) + rb"\b", code, re.M):
            continue  # the file declares the name itself
        found.append((header, name.decode()))
    return found


_DECLARED_AFTER = re.compile(rb"\s*[;=,\[:)]")


def _declares(code: bytes, start: int, end: int) -> bool:
    """``int half;``, ``float half = 0``: the word is a name being declared
    (a word before it, a declarator's end after it), not the type."""
    word = _WORD_BEFORE.search(code, max(0, start - 40), start)
    return word is not None and word.group(1) not in _EXPRESSION_KEYWORDS \
        and _DECLARED_AFTER.match(code, end) is not None


def _first_use(code: bytes, pattern: re.Pattern[bytes]) -> str | None:
    for m in pattern.finditer(code):
        name = m.group(1).decode()
        qualifier = _QUALIFIER.search(code, max(0, m.start() - 40), m.start())
        if qualifier is not None and qualifier.group(1) != b"std":
            continue  # mylib::printf: the project's own
        word = _WORD_BEFORE.search(code, max(0, m.start() - 40), m.start())
        if word is not None and word.group(1) not in _EXPRESSION_KEYWORDS:
            continue  # `void printf(const char*)`: a declaration of the project's own
        if re.search(rb"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name.encode()) + rb"\b",
                     code, re.M):
            return None  # the file defines the name itself
        return "std::" + name if pattern.pattern.startswith(rb"\\bstd") else name
    return None


def include_lines(headers: list[tuple[str, str]], newline: bytes) -> bytes:
    return b"".join(f"#include <{h}>".encode() + newline for h, _ in headers)


def message(header: str, name: str) -> str:
    if header in _VIA_LIBRARY:
        return (f"`{name}` without #include <{header}>: added (cuBLAS's header includes "
                "its CUDA counterpart, hipBLAS's does not)")
    return (f"`{name}` without #include <{header}>: added (nvcc includes cuda_runtime.h, which "
            "includes it, into every .cu file; ROCm 7's hip_runtime.h no longer does)")
