"""Building a Make project (``hipport verify --build``): ``make -C project
-k -j N -w`` in a copy of the tree (make writes its objects beside the
sources).  hipcc is told the GPU targets (where the Makefile names none,
or the user asked for one) and the toolchain's link flags through its own
environment variables, ``HIPCC_COMPILE_FLAGS_APPEND`` and
``HIPCC_LINK_FLAGS_APPEND``, so the Makefile is run as written; ``HIPCC``
names the chosen hipcc for a Makefile that leaves it to the environment
(``HIPCC ?= hipcc``).  The targets a Makefile has are only known by
running it: none are counted (a failure names its target)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from hipport.buildfiles.expand import read_text
from hipport.buildfiles.languages import CXX_SUFFIXES
from hipport.buildfiles.project import BuildPlan, BuildSettings, BuildStep

_TARGET = re.compile(r"--offload-arch[= ]|--amdgpu-target[= ]")
_COMMANDS = re.compile(r"&&|\|\||;|\|")
_HIPCC = re.compile(r"^hipcc(?:\.pl|\.bin)?$")
_CLANG = re.compile(r"^(?:amd)?clang\+\+(?:-\d+)?$|^(?:amd)?clang(?:-\d+)?$")
_TRACED = re.compile(r"^\S.*?:\d+: update target '", re.MULTILINE)  # make --trace, 4.0+
_ASSIGNMENT = re.compile(r"^\w+=")
_LAUNCHERS = frozenset({"ccache", "sccache", "distcc", "env", "time", "nice", "exec"})
_SOURCES = CXX_SUFFIXES | {".cu", ".hip", ".c"}


def make_plan(project: Path, folder: Path, settings: BuildSettings) -> BuildPlan:
    tools = settings.tools
    # --trace: make prints every recipe it runs, the silent ones (@) too,
    # so the hipcc compilations can be counted.  The user's variables last,
    # as they would type them (make NAME=VALUE).
    argv = (*tools.program("make"), "-C", str(project), "-k", "-w", "--trace", "-j",
            str(max(1, settings.jobs)),
            *(f"{name}={value}" for name, value in settings.configuration.make))
    targets = [] if _names_targets(project) and not settings.arch_given else \
        [f"--offload-arch={a}" for a in settings.offload_arch]
    compile_flags = [*targets, *settings.extra_args]
    env = [("HIPCC", tools.hipcc), ("HIPCC_COMPILE_FLAGS_APPEND", " ".join(compile_flags))]
    if tools.link_flags:
        env.append(("HIPCC_LINK_FLAGS_APPEND", " ".join(tools.link_flags)))
    return BuildPlan(project, (BuildStep("build", argv, project, tuple(env)),))


def _names_targets(project: Path) -> bool:
    """The project's Makefile gives hipcc its GPU targets itself."""
    for name in ("GNUmakefile", "makefile", "Makefile"):
        text = read_text(project / name)
        if text is not None:
            return _TARGET.search(text) is not None
    return False


def make_gpu_sources(output: str) -> int | None:
    """How many sources the build's recipes gave a HIP compiler (hipcc, or a
    Clang with ``-x hip``/``--offload-arch``), read from the commands make
    printed (``--trace`` prints the silent ones too); None when make traced
    no target it made (it ran no recipe, or is older than 4.0)."""
    if not _TRACED.search(output):
        return None
    sources: set[str] = set()
    for line in output.splitlines():
        if "hip" not in line:
            continue
        for command in _COMMANDS.split(line):
            sources.update(_hip_sources(command))
    return len(sources)


def _hip_sources(command: str) -> list[str]:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    while words and (_ASSIGNMENT.match(words[0]) or words[0] in _LAUNCHERS):
        words = words[1:]  # VAR=value hipcc ..., ccache hipcc ...
    if not words:
        return []
    program = Path(words[0]).name
    if not _HIPCC.match(program) and not (
            _CLANG.match(program) and ("hip" in words or any(
                w.startswith("--offload-arch") for w in words))):
        return []
    return [w for i, w in enumerate(words[1:], 1)
            if Path(w).suffix in _SOURCES and words[i - 1] != "-o"]
