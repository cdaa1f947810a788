"""Reading one libclang translation unit: which identifiers spelled in the
main file refer to CUDA's declarations and which to the user's own.

The result is a *verdict* per byte offset of an identifier in the file.  A use
inside a macro expansion is charged to the identifier in the ``#define`` body
it was spelled from, so a macro used 300 times gives one verdict.
"""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterator

from hipport.parse.model import Role, Span
from hipport.table.names import CandidateNames

_IDENT = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")


@dataclass
class Verdict:
    name: str
    cuda: bool | None  # None: clang could not tell (e.g. a mixed overload set in a template)
    role: Role | None = None  # from clang, for uses syntax mode did not report
    args: tuple[Span, ...] | None = None
    via_macro: str | None = None  # the user macro whose expansions resolved this body token
    expansions: int = 0


@dataclass
class Walk:
    verdicts: dict[int, Verdict] = field(default_factory=dict)
    macro_bodies: list[Span] = field(default_factory=list)  # #define bodies in the main file
    skipped: list[Span] = field(default_factory=list)  # preprocessor-inactive ranges


def identifier_at(data: bytes, offset: int) -> str:
    end = offset
    while end < len(data) and data[end] in _IDENT:
        end += 1
    return data[offset:end].decode("ascii", "replace")


class FileLocator:
    """getFileLoc for cursors (libclang's own Python API only exposes
    expansion locations, which put a macro argument at the macro's name)."""

    def __init__(self, cindex: ModuleType, tu: Any, main_name: str) -> None:
        lib = cindex.conf.lib
        self._fn = lib.clang_getFileLocation
        self._fn.argtypes = [cindex.SourceLocation, ctypes.POINTER(ctypes.c_void_p),
                             ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                             ctypes.POINTER(ctypes.c_uint)]
        self._fn.restype = None
        main = tu.get_file(main_name)
        self.main: int | None = ctypes.cast(main, ctypes.c_void_p).value if main else None

    def locate(self, location: Any) -> tuple[int | None, int]:
        file = ctypes.c_void_p()
        line, col, offset = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        self._fn(location, ctypes.byref(file), ctypes.byref(line), ctypes.byref(col),
                 ctypes.byref(offset))
        return file.value, offset.value

    def in_main(self, location: Any) -> int | None:
        file, offset = self.locate(location)
        return offset if file is not None and file == self.main else None


def skipped_ranges(cindex: ModuleType, tu: Any, main_name: str) -> list[Span]:
    """Preprocessor-inactive ranges of the main file (clang_getSkippedRanges)."""

    class RangeList(ctypes.Structure):
        _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(cindex.SourceRange))]

    lib = cindex.conf.lib
    get = lib.clang_getSkippedRanges
    get.argtypes = [cindex.TranslationUnit, ctypes.c_void_p]
    get.restype = ctypes.POINTER(RangeList)
    dispose = lib.clang_disposeSourceRangeList
    dispose.argtypes = [ctypes.POINTER(RangeList)]
    dispose.restype = None
    main = tu.get_file(main_name)
    if not main:
        return []
    result = get(tu, ctypes.cast(main, ctypes.c_void_p))
    try:
        return [(r.start.offset, r.end.offset)
                for r in (result.contents.ranges[i] for i in range(result.contents.count))]
    finally:
        dispose(result)


_REF_KINDS = ("DECL_REF_EXPR", "TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF", "OVERLOADED_DECL_REF")
_ROLE_OF_KIND = {"TYPE_REF": Role.TYPE, "TEMPLATE_REF": Role.TYPE,
                 "NAMESPACE_REF": Role.NAMESPACE}
_DECL_KINDS = ("FUNCTION_DECL", "VAR_DECL", "TYPEDEF_DECL", "TYPE_ALIAS_DECL", "STRUCT_DECL",
               "UNION_DECL", "CLASS_DECL", "ENUM_DECL", "ENUM_CONSTANT_DECL", "FUNCTION_TEMPLATE",
               "CLASS_TEMPLATE", "NAMESPACE", "MACRO_DEFINITION", "TYPE_ALIAS_TEMPLATE_DECL")
_CONTAINERS = ("LINKAGE_SPEC", "UNEXPOSED_DECL", "ENUM_DECL")


class TranslationUnitWalk:
    def __init__(self, cindex: ModuleType, tu: Any, data: bytes, main_name: str,
                 names: CandidateNames, is_cuda_file: Callable[[str], bool]) -> None:
        self.ck = cindex.CursorKind
        self.lib = cindex.conf.lib
        self.tu = tu
        self.data = data
        self.names = names
        self.is_cuda_file = is_cuda_file
        self.locator = FileLocator(cindex, tu, main_name)
        self.main_name = main_name
        self.walk = Walk()
        self._macros: dict[str, list[Any]] = {}  # user macro name -> definitions
        self._cuda_macros: set[str] = set()
        self._declared: dict[str, set[bool]] | None = None
        self._kind_names: dict[Any, str] = {}
        self._calls: dict[int, Any] = {}
        self._cuda_files: dict[int | None, bool] = {}  # callee cursor hash -> its call expression

    # -- ownership ---------------------------------------------------------
    def _owner(self, decl: Any) -> bool | None:
        if decl is None:
            return None
        if self._kind(decl) == "OVERLOADED_DECL_REF":
            owners = {self._owner(self.lib.clang_getOverloadedDecl(decl, i))
                      for i in range(self.lib.clang_getNumOverloadedDecls(decl))}
            return owners.pop() if len(owners) == 1 else None
        for candidate in (decl, decl.canonical):
            file = candidate.location.file
            if file is not None and (self.is_cuda_file(file.name)
                                     or candidate.location.is_in_system_header):
                return True
        return False if decl.location.file is not None else None

    def _kind(self, cursor: Any) -> str:
        kind = cursor.kind
        name = self._kind_names.get(kind)
        if name is None:
            name = self._kind_names[kind] = kind.name
        return name

    # -- the walk ----------------------------------------------------------
    def run(self) -> Walk:
        # Most top-level cursors come from headers: sort them out by file
        # pointer first, the cheapest question libclang answers.
        for top in self.tu.cursor.get_children():
            kind = self._kind(top)
            if kind == "MACRO_INSTANTIATION":
                if self.names.matches(top.spelling):
                    self._macro_use(top)
                continue
            file, _ = self.locator.locate(top.location)
            if kind == "MACRO_DEFINITION":
                self._note_macro(top, file)
            elif kind != "INCLUSION_DIRECTIVE" and file is not None and file == self.locator.main:
                self._visit(top, None)
        return self.walk

    def _file_is_cuda(self, file: int | None, cursor: Any) -> bool:
        known = self._cuda_files.get(file)
        if known is None:
            name = cursor.location.file.name
            known = self.is_cuda_file(name) or cursor.location.is_in_system_header
            self._cuda_files[file] = known
        return known

    def _note_macro(self, cursor: Any, file: int | None) -> None:
        if file is None:
            return
        if self._file_is_cuda(file, cursor):
            if self.names.matches(cursor.spelling):
                self._cuda_macros.add(cursor.spelling)
            return
        self._macros.setdefault(cursor.spelling, []).append(cursor)
        if file == self.locator.main:
            start = self.locator.in_main(cursor.location)
            end = cursor.extent.end.offset
            if start is not None:
                self.walk.macro_bodies.append((start + len(cursor.spelling), end))

    def _macro_use(self, cursor: Any) -> None:
        """A use of a macro CUDA defines (`CUFFT_FORWARD`, a renamed type)."""
        offset = self.locator.in_main(cursor.location)
        if offset is None:
            return
        definition = cursor.referenced
        owner = self._owner(definition) if definition is not None else None
        if owner is not None:
            self._record(offset, Verdict(cursor.spelling, owner, Role.VALUE))

    def _visit(self, cursor: Any, parent: Any) -> None:  # parent: for debugging walks
        kind = self._kind(cursor)
        if kind in _REF_KINDS:
            self._reference(cursor, kind, parent)
        children = list(cursor.get_children())
        if kind == "CALL_EXPR" and children:
            callee = children[0]
            while self._kind(callee) == "UNEXPOSED_EXPR":
                inner = next(iter(callee.get_children()), None)
                if inner is None:
                    break
                callee = inner
            self._calls[callee.hash] = cursor
        for child in children:
            self._visit(child, cursor)

    def _reference(self, cursor: Any, kind: str, parent: Any) -> None:
        decl = cursor if kind == "OVERLOADED_DECL_REF" else cursor.referenced
        name = cursor.spelling if kind in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF") else (
            decl.spelling if decl is not None else "")
        if not name or not self.names.matches(name):
            return
        offset = self.locator.in_main(cursor.location)
        if offset is None:
            return
        owner = self._owner(decl)
        spelled = identifier_at(self.data, offset)
        if spelled == name:
            role, args = self._role(cursor, kind, parent)
            self._record(offset, Verdict(name, owner, role, args))
        elif spelled in self._macros:
            for body_offset in self._body_tokens(spelled, name, set()):
                verdict = self.walk.verdicts.get(body_offset)
                if verdict is None:
                    verdict = Verdict(name, owner, via_macro=spelled)
                    self.walk.verdicts[body_offset] = verdict
                elif verdict.cuda is not owner and owner is not None and verdict.cuda is not True:
                    verdict.cuda = owner if verdict.cuda is None else True
                verdict.expansions += 1

    def _record(self, offset: int, verdict: Verdict) -> None:
        known = self.walk.verdicts.get(offset)
        if known is None or (known.cuda is not True and verdict.cuda):
            self.walk.verdicts[offset] = verdict

    def _role(self, cursor: Any, kind: str, parent: Any) -> tuple[Role, tuple[Span, ...] | None]:
        if kind in _ROLE_OF_KIND:
            return _ROLE_OF_KIND[kind], None
        call = self._calls.get(cursor.hash)
        if call is not None:
            spans = []
            for arg in call.get_arguments():
                start = self.locator.in_main(arg.extent.start)
                end = self.locator.in_main(arg.extent.end)
                if start is None or end is None or end < start:
                    return Role.CALL, None
                spans.append((start, end))
            return Role.CALL, tuple(spans)
        return Role.VALUE, None

    def _body_tokens(self, macro: str, name: str, seen: set[str]) -> Iterator[int]:
        """Offsets (in the main file) of `name` in the body of `macro` or of
        the user macros it expands to."""
        if macro in seen:
            return
        seen.add(macro)
        for definition in self._macros.get(macro, ()):
            is_main = definition.location.file.name == self.main_name
            for token in definition.get_tokens():
                spelling = token.spelling
                if spelling == name and is_main:
                    offset = self.locator.in_main(token.location)
                    if offset is not None:
                        yield offset
                elif spelling != macro and spelling in self._macros:
                    yield from self._body_tokens(spelling, name, seen)

    # -- names never expanded ----------------------------------------------
    def declared_owner(self, name: str) -> bool | None:
        """For a name in a macro body that no expansion resolved: True when
        only CUDA declares it, False when only the user does, None otherwise."""
        if self._declared is None:
            self._declared = self._index_declarations()
        if name in self._cuda_macros:
            return True
        owners = self._declared.get(name, set()) | ({False} if name in self._macros else set())
        return owners.pop() if len(owners) == 1 else None

    def _index_declarations(self) -> dict[str, set[bool]]:
        found: dict[str, set[bool]] = {}
        stack = list(self.tu.cursor.get_children())
        while stack:
            cursor = stack.pop()
            kind = self._kind(cursor)
            if kind in _CONTAINERS or kind == "NAMESPACE":
                stack.extend(cursor.get_children())
            if kind in _DECL_KINDS and kind != "MACRO_DEFINITION" \
                    and self.names.matches(cursor.spelling):
                owner = self._owner(cursor)
                if owner is not None:
                    found.setdefault(cursor.spelling, set()).add(owner)
        return found


def in_any(offset: int, spans: list[Span]) -> bool:
    return any(s <= offset < e for s, e in spans)


def is_cuda_path(prefixes: tuple[str, ...]) -> Callable[[str], bool]:
    cache: dict[str, bool] = {}

    def check(name: str) -> bool:
        found = cache.get(name)
        if found is None:
            real = os.path.realpath(name)
            found = cache[name] = name.startswith(prefixes) or real.startswith(prefixes)
        return found
    return check
