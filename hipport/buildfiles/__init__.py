"""Build-file conversion: every build system a registered plug-in
(``hipport.buildfiles.system``; CMake and Make in their own packages),
edited token by token.

``convert_build_file`` is the build-file counterpart of
``hipport.convert.convert_bytes``: bytes in, a ``ConversionResult`` out,
through the same ``apply_findings``.  What a build file becomes is the
conversion strategy's choice (``BuildStep``): the HIP build (``hip_build``,
the rewrite), or a single-source one."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Callable

from hipport.buildfiles.system import (
    BuildFileSyntaxError,
    BuildSystem,
    build_systems,
    system_for,
    system_named,
)
from hipport.convert import (
    Check,
    ConversionResult,
    allowed,
    apply_findings,
    choose_check,
    unreadable_result,
    unstable,
)
from hipport.edits import Edit
from hipport.findings import Finding
from hipport.settings import Settings

__all__ = ["BuildStep", "BuildSystem", "build_systems", "convert_build_file",
           "detect_build_kind", "find_build_findings", "hip_build", "system_for",
           "system_named"]

# What a strategy makes of one build file read by its system: its findings.
BuildStep = Callable[[BuildSystem, str, object, Settings], list[Finding]]


def hip_build(system: BuildSystem, text: str, parsed: object,
              options: Settings) -> list[Finding]:
    """The build file made to build with HIP (the rewrite strategy's step)."""
    return system.hip_findings(text, parsed, options)


def detect_build_kind(path: PurePath | str) -> str | None:
    """The name of the build system whose file ``path`` is (``"cmake"`` for
    CMakeLists.txt and *.cmake, ``"make"`` for Makefile, makefile,
    GNUmakefile and *.mk), otherwise None."""
    system = system_for(path)
    return system.name if system is not None else None


def _system(system: BuildSystem | str) -> BuildSystem:
    return system_named(system) if isinstance(system, str) else system


def find_build_findings(data: bytes, system: BuildSystem | str, options: Settings,
                        step: BuildStep = hip_build) -> list[Finding]:
    """All findings for a build file; nothing applied."""
    # latin-1 maps every byte to one character: string offsets are byte
    # offsets, and any bytes (UTF-8 comments included) round-trip unchanged.
    text = data.decode("latin-1")
    system = _system(system)
    try:
        parsed = system.parse(text)
    except BuildFileSyntaxError as exc:
        return [Finding("HP655", f"not converted: {exc}", exc.offset, exc.offset)]
    return step(system, text, parsed, options)


def convert_build_file(data: bytes, system: BuildSystem | str,
                       options: Settings = Settings(),
                       step: BuildStep = hip_build) -> ConversionResult:
    unreadable = unreadable_result(data, options)
    if unreadable is not None:
        return unreadable
    system = _system(system)
    return apply_findings(data, find_build_findings(data, system, options, step),
                          options, BuildVerifier(system, options, step))


@dataclass(frozen=True)
class BuildVerifier:
    """A converted build file must still read and, converted again, change
    nothing (no edit of a build file is stable by construction)."""

    system: BuildSystem
    options: Settings
    step: BuildStep

    def __call__(self, output: bytes, had_skips: bool,
                 edits: tuple[Edit, ...]) -> Finding | None:
        try:
            self.system.parse(output.decode("latin-1"))
        except BuildFileSyntaxError:
            return Finding("HP003", "the converted build file would not read; left unchanged",
                           0, 0)
        check = choose_check(self.options, had_skips, stable_by_construction=False)
        if check is Check.SECOND_PASS:
            again = find_build_findings(output, self.system, self.options, self.step)
            leftover = [f for f in again if allowed(f.fix, self.options)]
            return unstable(leftover[0]) if leftover else None
        return None
