"""Which hipcc compiles the converted tree, and what it is: the choice of
``hipport.doctor.hipcc`` (doctor makes the same one), which must run and
say which HIP it is."""
from __future__ import annotations

import re
from dataclasses import dataclass

from hipport.doctor.hipcc import PROBE_TIMEOUT, choose_hipcc, probe_env
from hipport.doctor.system import NO_ANSWER, System
from hipport.errors import HipportError, UsageError
from hipport.suggest import did_you_mean

__all__ = ["Compiler", "NoCompiler", "PROBE_TIMEOUT", "check_targets", "find_compiler"]

# The AMD GPU targets of LLVM's AMDGPU back end (`clang --target=amdgcn-amd-amdhsa
# --print-supported-cpus` of Clang 15, HIP 5.2, and Clang 21, ROCm 6.4): what a
# target hipcc rejects is compared with, for "did you mean".
GPU_TARGETS = (
    "gfx600", "gfx601", "gfx602", "gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705",
    "gfx801", "gfx802", "gfx803", "gfx805", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906",
    "gfx908", "gfx909", "gfx90a", "gfx90c", "gfx940", "gfx942", "gfx950", "gfx1010",
    "gfx1011", "gfx1012", "gfx1013", "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034",
    "gfx1035", "gfx1036", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151",
    "gfx1152", "gfx1153", "gfx1200", "gfx1201", "gfx1250", "gfx9-generic", "gfx9-4-generic",
    "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic",
)
# Clang's answer to a target it does not know (a processor or a feature).
_REJECTED = re.compile(r"(?:invalid target ID|unsupported (?:HIP|CUDA|AMDGPU) gpu architecture"
                       r"|unknown target CPU):? '?([\w:+.-]+)'?")


class NoCompiler(HipportError):
    pass


@dataclass(frozen=True)
class Compiler:
    path: str  # absolute
    hip_version: str | None  # "5.2"
    clang_version: str | None  # "15.0.6"
    env: tuple[tuple[str, str], ...]  # the environment it runs with (HIP_PLATFORM=amd)
    chosen_by: str = ""  # the place it was found ("--hipcc", "toolchain", "PATH")
    reason: str = ""  # why it was chosen, for the user

    @property
    def description(self) -> str:
        """``hipcc (HIP 5.2, clang 15.0.6)``."""
        parts = [f"HIP {self.hip_version}" if self.hip_version else "HIP version unknown"]
        if self.clang_version:
            parts.append(f"clang {self.clang_version}")
        return f"hipcc ({', '.join(parts)})"

    def environ(self) -> dict[str, str]:
        return dict(self.env)


def find_compiler(system: System, given: str | None = None,
                  timeout: float = PROBE_TIMEOUT) -> Compiler:
    """The hipcc to compile with; ``NoCompiler`` names every place tried.
    An explicit ``--hipcc`` or ``HIPCC`` that is not there or does not run
    is an error by itself: falling back would verify with another compiler
    than asked.  Each ``--version`` probe gets ``timeout`` seconds,
    ``PROBE_TIMEOUT`` at most."""
    choice = choose_hipcc(system, ("--hipcc", given) if given else None, timeout)
    if choice.path is None or choice.problem or choice.place is None:
        there = [item for item in choice.looked if item.path is not None]
        if there and all(NO_ANSWER in item.problem for item in there):
            # hipcc is there: the time limit (--timeout 0.001) stopped it, it is not missing
            limit = min(timeout, PROBE_TIMEOUT)
            what = "give a longer --timeout" if timeout < PROBE_TIMEOUT else \
                "a hipcc that does not answer cannot compile"
            raise NoCompiler(f"no HIP compiler answered --version within {limit:g} s (tried "
                             f"{choice.tried}): {what}")
        raise NoCompiler("no HIP compiler to verify with; tried " + choice.tried
                         + ". Install hipcc (Debian: apt install hipcc; ROCm: hip-dev) or "
                         "name it with --hipcc PATH")
    env = tuple(sorted(probe_env(system).items()))
    return Compiler(choice.path, choice.hip_version, choice.clang_version, env,
                    choice.place.name, choice.reason)


def check_targets(system: System, compiler: Compiler, targets: tuple[str, ...], given: str,
                  timeout: float = PROBE_TIMEOUT) -> None:
    """Ask ``compiler`` once whether it knows every GPU target (an empty
    translation unit, ``-fsyntax-only``): a target it rejects is a usage error
    here, not the same error for every unit.  ``given`` says where the
    targets came from (``--offload-arch``).  Other failures of the probe are
    left to the units, which say more."""
    argv = [compiler.path, *(f"--offload-arch={t}" for t in targets), "-fsyntax-only",
            "-nogpuinc", "-x", "hip", "/dev/null"]
    answer = system.run(argv, compiler.environ(), min(timeout, PROBE_TIMEOUT))
    if answer.ok or answer.error:
        return
    rejected = _REJECTED.search(answer.text)
    if rejected is None:
        return
    target = rejected[1]
    processor = target.split(":", 1)[0]
    if processor in GPU_TARGETS and processor != target:
        hint = "; check the features after the processor (gfx90a:xnack+, gfx942:sramecc-)"
    elif processor in GPU_TARGETS:
        hint = " (a newer Clang does): choose another target, or a newer hipcc with --hipcc"
    else:
        hint = did_you_mean(processor, GPU_TARGETS)
    raise UsageError(f"{given} {target}: not a GPU target {compiler.description} knows{hint}")
