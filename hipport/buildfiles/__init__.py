"""Build-file conversion: CMake and Makefiles, edited token by token.

``convert_build_file`` is the build-file counterpart of
``hipport.convert.convert_bytes``: bytes in, a ``ConversionResult`` out,
through the same ``apply_findings``."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from hipport.buildfiles.cmake import cmake_findings
from hipport.buildfiles.cmake_tokens import CMakeSyntaxError, lex_cmake
from hipport.buildfiles.compat import cmake_compat, make_compat
from hipport.buildfiles.make import make_findings
from hipport.buildfiles.make_tokens import lex_make
from hipport.buildfiles.options import DEFAULT_OFFLOAD_ARCH, BuildOptions, parse_offload_arch
from hipport.convert import Check, ConversionResult, allowed, apply_findings, choose_check, unstable
from hipport.edits import Edit
from hipport.findings import Finding
from hipport.source import not_text_reason

__all__ = ["BuildKind", "BuildOptions", "DEFAULT_OFFLOAD_ARCH", "BUILD_FILE_NAMES",
           "BUILD_FILE_SUFFIXES", "convert_build_file", "detect_build_kind",
           "find_build_findings", "parse_offload_arch"]

BuildKind = Literal["cmake", "make"]

BUILD_FILE_NAMES: dict[str, BuildKind] = {"CMakeLists.txt": "cmake", "Makefile": "make",
                                          "makefile": "make", "GNUmakefile": "make"}
BUILD_FILE_SUFFIXES: dict[str, BuildKind] = {".cmake": "cmake", ".mk": "make"}


def detect_build_kind(path: PurePath | str) -> BuildKind | None:
    """``"cmake"`` for CMakeLists.txt and *.cmake, ``"make"`` for Makefile,
    makefile, GNUmakefile and *.mk, otherwise None."""
    path = PurePath(path)
    if path.name in BUILD_FILE_NAMES:
        return BUILD_FILE_NAMES[path.name]
    return BUILD_FILE_SUFFIXES.get(path.suffix)


def find_build_findings(data: bytes, kind: str, options: BuildOptions) -> list[Finding]:
    """All findings for a build file; nothing applied."""
    # latin-1 maps every byte to one character: string offsets are byte
    # offsets, and any bytes (UTF-8 comments included) round-trip unchanged.
    text = data.decode("latin-1")
    if kind == "cmake":
        try:
            commands = lex_cmake(text)
        except CMakeSyntaxError as exc:
            return [Finding("HP655", f"not converted: {exc}", exc.offset, exc.offset)]
        findings = cmake_findings(text, commands, options)
        if options.settings.strategy == "compat" and commands:
            return cmake_compat(text, commands, findings,
                                options.settings.compat_macro or "")
        return findings
    if kind == "make":
        findings = make_findings(text, options)
        if options.settings.strategy == "compat":
            return make_compat(text, lex_make(text), findings,
                               options.settings.compat_macro or "")
        return findings
    raise ValueError(f"unknown build file kind {kind!r}; expected 'cmake' or 'make'")


def convert_build_file(data: bytes, kind: str,
                       options: BuildOptions = BuildOptions()) -> ConversionResult:
    unreadable = not_text_reason(data)
    if unreadable is not None:
        finding = Finding("HP002", f"{unreadable}; skipped", 0, 0)
        return apply_findings(data, [finding], options.settings)
    return apply_findings(data, find_build_findings(data, kind, options), options.settings,
                          BuildVerifier(kind, options))


@dataclass(frozen=True)
class BuildVerifier:
    """A converted build file must still lex and, converted again, change
    nothing (no edit of a build file is stable by construction)."""

    kind: str
    options: BuildOptions

    def __call__(self, output: bytes, had_skips: bool,
                 edits: tuple[Edit, ...]) -> Finding | None:
        check = choose_check(self.options.settings, had_skips, stable_by_construction=False)
        if self.kind == "cmake" and not _lexes(output):
            return Finding("HP003", "the converted build file would not lex; left unchanged",
                           0, 0)
        if check is Check.SECOND_PASS:
            again = find_build_findings(output, self.kind, self.options)
            leftover = [f for f in again if allowed(f.fix, self.options.settings)]
            return unstable(leftover[0]) if leftover else None
        return None


def _lexes(data: bytes) -> bool:
    try:
        lex_cmake(data.decode("latin-1"))
    except CMakeSyntaxError:
        return False
    return True
