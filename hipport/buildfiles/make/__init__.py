"""Make: Makefiles and *.mk files, edited line by line."""
from __future__ import annotations

from pathlib import Path

from hipport.buildfiles.make.build import make_gpu_sources, make_plan
from hipport.buildfiles.make.compile_flags import make_flags
from hipport.buildfiles.make.convert import make_findings
from hipport.buildfiles.make.languages import make_compiled
from hipport.buildfiles.make.single_source import make_compat
from hipport.buildfiles.make.targets import make_targets
from hipport.buildfiles.make.tokens import MakeLine, lex_make
from hipport.buildfiles.project import BuildPlan, BuildSettings, Configuration
from hipport.buildfiles.system import BuildSystem, BuildTargets, build_system
from hipport.findings import Finding
from hipport.settings import Settings


@build_system
class Make(BuildSystem):
    name = "make"
    title = "Make"
    # In the order GNU make looks for them: the first found is the one it reads.
    file_names = ("GNUmakefile", "makefile", "Makefile")
    suffixes = (".mk",)
    programs = ("make",)
    builds_in_place = True

    def parse(self, text: str) -> list[MakeLine]:
        return lex_make(text)

    def hip_findings(self, text: str, parsed: object, options: Settings,
                     keep_names: bool = False) -> list[Finding]:
        return make_findings(text, _lines(parsed), options, keep_names)

    def single_source(self, text: str, parsed: object, findings: list[Finding],
                      macro: str) -> list[Finding]:
        return make_compat(text, _lines(parsed), findings, macro)

    def compile_flags(self, path: Path, top: Path, source: Path,
                      configuration: Configuration = Configuration()) -> list[str]:
        compiled = make_compiled(path).get(source)
        return make_flags(path, configuration.make) + \
            (compiled.flags if compiled is not None else [])

    def build_plan(self, project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
        return make_plan(project, folder, settings)

    def gpu_sources(self, plan: BuildPlan, output: str) -> int | None:
        return make_gpu_sources(output)

    def targets(self, path: Path, top: Path) -> BuildTargets | None:
        if path.suffix in self.suffixes:  # a fragment: read where a Makefile includes it
            return BuildTargets((), ())
        return make_targets(path)


def _lines(parsed: object) -> list[MakeLine]:
    assert isinstance(parsed, list)
    return parsed
