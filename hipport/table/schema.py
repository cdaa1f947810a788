"""Mapping entries and their validation, with file:line:key messages."""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from hipport.libraries import library_table

SCHEMA_ID = "hipport-mappings/1"

LIBRARIES = library_table().cuda_keys  # mappings/rocm-libraries.yaml
KINDS = ("function", "type", "enum", "macro", "header", "device_function", "namespace")
VERSION_KEYS = ("added", "deprecated", "removed")


# C++23 keywords and alternative tokens (C's own are all among them, bar
# `restrict` and the underscore ones, which are reserved names anyway).
CPP_KEYWORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires restrict return short signed sizeof static
    static_assert static_cast struct switch template this thread_local throw true try typedef
    typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
""".split())
# A type may become a one-word fundamental type: `cusolver_int_t` -> `int`.
FUNDAMENTAL_TYPES = frozenset(
    "bool char char8_t char16_t char32_t wchar_t short int long signed unsigned float double "
    "void".split())
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_HEADER_PART = re.compile(r"[A-Za-z0-9_+-][A-Za-z0-9_.+-]*\Z")
# A release in cuda_version / rocm_version: 6, 6.2 or 6.2.1 (mappings/schema.json).
# ASCII digits only: Python's \d, int() and str.isdigit() also take "٦.٢".
VERSION = re.compile(r"[0-9]+(\.[0-9]+){0,2}\Z")


def _header_path(text: str) -> bool:
    parts = text.split("/")
    return all(_HEADER_PART.match(p) for p in parts) and not any(p in (".", "..") for p in parts)


def _qualified_name(text: str) -> bool:
    return all(_IDENTIFIER.match(p) for p in text.split("::"))


def target_problem(kind: str, hip: str) -> str | None:
    """Why ``hip`` cannot replace a CUDA name of ``kind``; None when it can.

    A rename swaps one token for ``hip``, so ``hip`` must be a C/C++ name
    (``ns::name`` allowed), never blank, never two tokens, never a keyword;
    a header target is a relative header path."""
    if kind == "header":
        if _header_path(hip):
            return None
        return ("expected a relative header path such as hip/hip_runtime.h (letters, digits, "
                f"'_', '.', '+', '-' and '/'), got {hip!r}")
    if kind == "type" and hip in FUNDAMENTAL_TYPES:
        # One word only: `unsigned long` would break a functional cast `T(x)`.
        return None
    parts = hip.split("::")
    if not _qualified_name(hip):
        return ("expected a C/C++ name (letters, digits and '_', not starting with a digit; "
                f"'ns::name' for a qualified one), got {hip!r}")
    keyword = next((p for p in parts if p in CPP_KEYWORDS), None)
    if keyword is not None:
        what = "type" if kind == "type" else kind.replace("_", " ")
        return f"{keyword!r} is a C++ keyword, not a {what} name"
    return None


def source_problem(kind: str, cuda: str) -> str | None:
    """Why ``cuda`` cannot be the CUDA name an entry of ``kind`` matches; None
    when it can.  References are matched token by token, so it is a C/C++
    identifier (``ns::name`` allowed) that is no keyword, or for a header, a
    relative header path."""
    if kind == "header":
        if _header_path(cuda):
            return None
        return f"expected a relative header path such as cuda_runtime.h, got {cuda!r}"
    if not _qualified_name(cuda):
        return ("expected a C/C++ identifier (letters, digits and '_', not starting with a "
                f"digit; 'ns::name' for a qualified one), got {cuda!r}")
    keyword = next((p for p in cuda.split("::") if p in CPP_KEYWORDS), None)
    if keyword is not None:
        return f"expected a C/C++ identifier, got the keyword {keyword!r}"
    return None


def version_problem(text: str) -> str | None:
    """Why ``text`` is not a release of a ``*_version`` key; None when it is."""
    if VERSION.match(text):
        return None
    return f"expected a version like 6.2, got {text!r}"


class Status(enum.Enum):
    SUPPORTED = "supported"
    DEPRECATED = "deprecated"
    UNSUPPORTED = "unsupported"
    REMOVED = "removed"

    @property
    def converts(self) -> bool:
        return self in (Status.SUPPORTED, Status.DEPRECATED)


Versions = tuple[tuple[str, str], ...]
# A Mapping as plain data (for the compiled-catalogue cache), fields in order;
# the last is the ``older`` mapping's row, or None.
# A header's ``guard``: the CUDA macros whose definition says the header was
# included, and the macro the HIP header defines instead.
Guard = tuple[tuple[str, ...], str]
# A function's ``casts``: (argument index, the C type the argument is cast to).
Casts = tuple[tuple[int, str], ...]
Row = tuple[str, "str | None", str, str, str, "str | None", "str | None", bool, "str | None",
            Versions, Versions, str, Any, "Guard | None", bool, Casts, Any, Any]
ROW_LENGTH = 18
# The argument rule that applies an entry's ``casts`` (hipport.rules.arguments).
CAST_RULE = "cast-arguments"


@dataclass(frozen=True)
class Mapping:
    cuda: str
    hip: str | None
    kind: str
    library: str
    status: Status = Status.SUPPORTED
    hip_library: str | None = None
    note: str | None = None
    unsafe: bool = False
    rule: str | None = None
    cuda_version: tuple[tuple[str, str], ...] = ()
    rocm_version: tuple[tuple[str, str], ...] = ()
    origin: str = ""  # "file:line", for messages
    # What to emit for a target ROCm older than ``rocm_version.added``
    # (same CUDA name, kind and library; see hipport.table.versions).
    older: Mapping | None = None
    # kind header only (docs/preprocessor.md): `#ifdef CUBLAS_API_H_` -> `#ifdef HIPBLAS_H`.
    guard: Guard | None = None
    # kind header only: the HIP header compiles only as C++ (thrust, hipCUB,
    # hipfftXt.h, ...), so a C translation unit must not include it.
    cxx_only: bool = False
    # kind function only: arguments HIP's declaration takes as a stricter type
    # than CUDA's (`const char**` for `const char* const*`), cast to it by the
    # cast-arguments rule (``rule`` is then CAST_RULE).
    casts: Casts = ()
    # What to emit for a target ROCm from ``rocm_version.removed`` on: the
    # name that replaced the removed one (hipBLAS 3: hipblasCgemm_v2 ->
    # hipblasCgemm, which takes hipComplex from ROCm 7).
    newer: Mapping | None = None
    # What `--roc` emits instead (hipport.table.roc): the entry as it converts
    # to the ROCm library itself (rocBLAS, not hipBLAS), its own name, status,
    # rule, note and range; ``hip`` is then that library's name.
    roc: Mapping | None = None

    def to_row(self) -> Row:
        return (self.cuda, self.hip, self.kind, self.library, self.status.value,
                self.hip_library, self.note, self.unsafe, self.rule, self.cuda_version,
                self.rocm_version, self.origin,
                None if self.older is None else self.older.to_row(), self.guard, self.cxx_only,
                self.casts, None if self.newer is None else self.newer.to_row(),
                None if self.roc is None else self.roc.to_row())

    @classmethod
    def from_row(cls, row: Row) -> Mapping:
        (cuda, hip, kind, library, status, hip_library, note, unsafe, rule, cuda_version,
         rocm_version, origin, older, guard, cxx_only, casts, newer, roc) = row
        return cls(cuda, hip, kind, library, Status(status), hip_library, note, unsafe, rule,
                   cuda_version, rocm_version, origin,
                   None if older is None else cls.from_row(older), guard, cxx_only,
                   tuple((int(i), str(t)) for i, t in casts),
                   None if newer is None else cls.from_row(newer),
                   None if roc is None else cls.from_row(roc))

    @property
    def rocm_added(self) -> str | None:
        return dict(self.rocm_version).get("added")

    @property
    def rocm_deprecated(self) -> str | None:
        return dict(self.rocm_version).get("deprecated")

    @property
    def rocm_removed(self) -> str | None:
        return dict(self.rocm_version).get("removed")


_ASCII_DIGITS = frozenset("0123456789")


def parse_version(text: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in text.split("."):
        digits = "".join(ch for ch in piece if ch in _ASCII_DIGITS)
        parts.append(int(digits) if digits else 0)
    return tuple(parts)
