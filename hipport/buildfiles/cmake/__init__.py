"""CMake: CMakeLists.txt and *.cmake files, edited command by command."""
from __future__ import annotations

from pathlib import Path

from hipport.buildfiles.cmake.build import (
    cmake_gpu_sources,
    cmake_made_targets,
    cmake_plan,
    cmake_target_named,
)
from hipport.buildfiles.cmake.compile_flags import cmake_flags
from hipport.buildfiles.cmake.conditions import gpu_switches
from hipport.buildfiles.cmake.convert import cmake_findings
from hipport.buildfiles.cmake.languages import cmake_compiled
from hipport.buildfiles.cmake.single_source import cmake_compat
from hipport.buildfiles.cmake.targets import cmake_targets
from hipport.buildfiles.cmake.tokens import CMakeSyntaxError, Command, lex_cmake
from hipport.buildfiles.project import BuildPlan, BuildSettings, Configuration, Switch, Target
from hipport.buildfiles.system import (
    BuildFileSyntaxError,
    BuildSystem,
    BuildTargets,
    build_system,
)
from hipport.findings import Finding
from hipport.settings import Settings

LISTS = "CMakeLists.txt"


@build_system
class CMake(BuildSystem):
    name = "cmake"
    title = "CMake"
    file_names = (LISTS,)
    suffixes = (".cmake",)
    programs = ("cmake", "make")  # the Makefile generator
    # A newline is cut off, ';' splits a list, '#', '"' and '\\' break the
    # generated Makefiles (CMake 3.25 and 4.3 alike).
    path_characters = (("\n", "a newline"), (";", "a ';'"), ("#", "a '#'"), ('"', "a '\"'"),
                       ("\\", "a '\\'"))

    def parse(self, text: str) -> list[Command]:
        try:
            return lex_cmake(text)
        except CMakeSyntaxError as exc:
            raise BuildFileSyntaxError(str(exc), exc.offset) from None

    def hip_findings(self, text: str, parsed: object, options: Settings,
                     keep_names: bool = False) -> list[Finding]:
        return cmake_findings(text, _commands(parsed), options)

    def single_source(self, text: str, parsed: object, findings: list[Finding],
                      macro: str) -> list[Finding]:
        commands = _commands(parsed)
        return cmake_compat(text, commands, findings, macro) if commands else findings

    def compile_flags(self, path: Path, top: Path, source: Path,
                      configuration: Configuration = Configuration()) -> list[str]:
        # ${PROJECT_SOURCE_DIR}: the outermost folder with a CMakeLists.txt.
        project = path.parent
        for folder in path.parent.parents:
            if folder != top and top not in folder.parents:
                break
            if (folder / LISTS).is_file():
                project = folder
        given = configuration.cmake
        compiled = cmake_compiled(path, project, given).get(source)
        return cmake_flags(path, project, given) + \
            (compiled.flags if compiled is not None else [])

    def build_plan(self, project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
        return cmake_plan(project, folder, settings)

    def target_named(self, made: str) -> str:
        return cmake_target_named(made)

    def made_targets(self, plan: BuildPlan, output: str) -> tuple[Target, ...]:
        return cmake_made_targets(plan, output)

    def gpu_sources(self, plan: BuildPlan, output: str) -> int | None:
        return cmake_gpu_sources(plan, output)

    def gpu_switches(self, project: Path, configuration: Configuration) -> list[Switch]:
        files = [project / LISTS] + sorted(
            (p for p in project.rglob("*") if self.claims(p) and p != project / LISTS
             and not any(part.startswith(".") for part in p.relative_to(project).parts)),
            key=lambda p: (len(p.parts), p))
        return gpu_switches(files, dict(configuration.cmake))

    def targets(self, path: Path, top: Path) -> BuildTargets | None:
        if path.name != LISTS:  # a module: read where a CMakeLists.txt includes it
            return BuildTargets((), ())
        return cmake_targets(path, top)


def _commands(parsed: object) -> list[Command]:
    assert isinstance(parsed, list)
    return parsed
