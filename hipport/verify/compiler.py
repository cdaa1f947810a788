"""Which hipcc compiles the converted tree, and what it is: the choice of
``hipport.doctor.hipcc`` (doctor makes the same one), which must run and
say which HIP it is."""
from __future__ import annotations

from dataclasses import dataclass

from hipport.doctor.hipcc import PROBE_TIMEOUT, choose_hipcc, probe_env
from hipport.doctor.system import System
from hipport.errors import HipportError

__all__ = ["Compiler", "NoCompiler", "PROBE_TIMEOUT", "find_compiler"]


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
        raise NoCompiler("no HIP compiler to verify with; tried " + choice.tried
                         + ". Install hipcc (Debian: apt install hipcc; ROCm: hip-dev) or "
                         "name it with --hipcc PATH")
    env = tuple(sorted(probe_env(system).items()))
    return Compiler(choice.path, choice.hip_version, choice.clang_version, env,
                    choice.place.name, choice.reason)
