"""Standard headers nvcc gives every .cu file and ROCm 7's hipcc does not.

CUDA's runtime header pulls in <stdio.h>, <string.h>, <assert.h> and (through
libstdc++) <thread>, and nvcc includes it into every .cu file, so CUDA code
calls printf or memcpy with no include of its own.  HIP's hip_runtime.h
included the same headers up to ROCm 6.4; ROCm 7 dropped them (7.2's
hip_runtime.h includes none of the four), so such a file stops at
``use of undeclared identifier 'printf'``.  The header is added where the
file uses a name of it and includes it in no form."""
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
    if not applies(ctx):
        return []
    code = blank(ctx.data)
    included = {inc.target for inc in ctx.analysis.includes}
    found: list[tuple[str, str]] = []
    for header, (forms, _) in _HEADERS.items():
        if included.intersection(forms):
            continue
        name = _first_use(code, _PATTERNS[header])
        if name is not None:
            found.append((header, name))
    return found


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
    return (f"`{name}` without #include <{header}>: added (nvcc includes cuda_runtime.h, which "
            "includes it, into every .cu file; ROCm 7's hip_runtime.h no longer does)")
