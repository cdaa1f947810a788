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
from pathlib import Path

from hipport.buildfiles.expand import read_text
from hipport.buildfiles.hip_commands import hip_sources
from hipport.buildfiles.project import BuildPlan, BuildSettings, BuildStep

_TARGET = re.compile(r"--offload-arch[= ]|--amdgpu-target[= ]")
_TRACED = re.compile(r"^\S.*?:\d+: update target '", re.MULTILINE)  # make --trace, 4.0+


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
    sources: set[tuple[str | None, str]] = set()
    for line in output.splitlines():
        if "hip" in line:
            sources.update(hip_sources(line))
    return len(sources)
