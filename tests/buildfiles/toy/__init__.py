"""A toy build system, as a contributor would add one: one package, one
class.  Its files are ``build.toy``; a line ``cc = nvcc`` names the compiler
and ``flags = ...`` its flags; it builds by compiling every ``.hip`` file of
its folder with hipcc, beside the sources.  tests/buildfiles/toy_system_test.py registers
it and runs hipport over a tree that has one."""
from __future__ import annotations

from pathlib import Path

from hipport.buildfiles.project import BuildPlan, BuildSettings, BuildStep, Configuration
from hipport.buildfiles.system import BuildFileSyntaxError, BuildSystem
from hipport.edits import Edit, Fix
from hipport.findings import Finding
from hipport.settings import Settings


class Toy(BuildSystem):
    name = "toy"
    title = "Toy"
    file_names = ("build.toy",)
    programs = ("bash",)
    builds_in_place = True

    def parse(self, text: str) -> list[tuple[int, str, str]]:
        """(offset of the value, key, value) per line."""
        lines = []
        at = 0
        for line in text.splitlines(keepends=True):
            if line.strip():
                key, sep, value = line.partition("=")
                if not sep:
                    raise BuildFileSyntaxError(f"expected KEY = VALUE, got {line.strip()!r}", at)
                start = at + len(key) + 1 + (len(value) - len(value.lstrip()))
                lines.append((start, key.strip(), value.strip()))
            at += len(line)
        return lines

    def hip_findings(self, text: str, parsed: object, options: Settings,
                     keep_names: bool = False) -> list[Finding]:
        assert isinstance(parsed, list)
        findings = []
        for start, key, value in parsed:
            if key == "cc" and value == "nvcc":
                fix = Fix((Edit(start, start + len(value), b"hipcc"),), title="nvcc -> hipcc")
                findings.append(Finding("HP609", "nvcc -> hipcc", start, start + len(value), fix))
            if key == "flags" and "-arch=sm_" in value:
                arch = " ".join(f"--offload-arch={a}" for a in options.offload_arch)
                fix = Fix((Edit(start, start + len(value), arch.encode()),), title="targets")
                findings.append(Finding("HP603", f"{value} -> {arch}", start,
                                        start + len(value), fix))
        return findings

    def single_source(self, text: str, parsed: object, findings: list[Finding],
                      macro: str) -> list[Finding]:
        return [Finding("HP656", "toy build files have no HIP switch", f.start, f.end)
                for f in findings]

    def compile_flags(self, path: Path, top: Path, source: Path,
                      configuration: Configuration = Configuration()) -> list[str]:
        text = path.read_text()
        return [f"-D{line.split('=', 1)[1].strip()}" for line in text.splitlines()
                if line.startswith("define")]

    def build_plan(self, project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
        script = 'for f in *.hip; do "$HIPCC" -c -o "${f%.hip}.o" "$f" || s=1; done; exit $s'
        return BuildPlan(project, (BuildStep("build", (*settings.tools.program("bash"), "-c",
                                                       "s=0; " + script), project,
                                             (("HIPCC", settings.tools.hipcc),)),))
