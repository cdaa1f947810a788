"""Build-file conversion: CMake and Makefiles, edited token by token.

``convert_build_file`` is the build-file counterpart of
``hipport.convert.convert_bytes``: bytes in, a ``ConversionResult`` out,
through the same ``apply_findings``."""
from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from hipport.buildfiles.cmake import cmake_findings
from hipport.buildfiles.cmake_tokens import CMakeSyntaxError, lex_cmake
from hipport.buildfiles.make import make_findings
from hipport.buildfiles.options import DEFAULT_OFFLOAD_ARCH, BuildOptions, parse_offload_arch
from hipport.convert import ConversionResult, apply_findings
from hipport.edits import Applicability, Edit
from hipport.findings import Finding
from hipport.source import is_probably_binary

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
        return cmake_findings(text, commands, options)
    if kind == "make":
        return make_findings(text, options)
    raise ValueError(f"unknown build file kind {kind!r}; expected 'cmake' or 'make'")


def convert_build_file(data: bytes, kind: str,
                       options: BuildOptions = BuildOptions()) -> ConversionResult:
    if is_probably_binary(data):
        finding = Finding("HP002", "binary content (NUL bytes); skipped", 0, 0)
        return apply_findings(data, [finding], options.settings)

    def verify(output: bytes, had_skips: bool, _edits: tuple[Edit, ...]) -> Finding | None:
        again = find_build_findings(output, kind, options)
        if any(f.code == "HP655" for f in again):
            return Finding("HP003", "the converted build file would not lex; left unchanged",
                           0, 0)
        needed = Applicability.UNSAFE if options.settings.unsafe_fixes else Applicability.SAFE
        leftover = [f for f in again if f.fix is not None and f.fix.applicability >= needed]
        if leftover and not had_skips and options.settings.stability_check:
            return Finding("HP004", f"converting twice is not stable (second pass: "
                           f"{leftover[0].message}); file left unchanged", 0, 0)
        return None

    return apply_findings(data, find_build_findings(data, kind, options), options.settings,
                          verify)
