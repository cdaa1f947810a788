"""Which hipcc compiles the converted tree, and what it is.

Looked for in this order: ``--hipcc PATH``, the environment variable
``HIPCC``, ``$ROCM_PATH/bin/hipcc``, ``hipcc`` on PATH (doctor looks in the
same places, without the first two)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from hipport.doctor.system import System
from hipport.errors import HipportError

_HIP_VERSION = re.compile(r"HIP version: (\d+)\.(\d+)(?:\.(\d+))?")
_CLANG_VERSION = re.compile(r"clang version (\d+(?:\.\d+)*)")
# hipcc --version, at most (and never longer than --timeout): the ROCm chroot
# wrapper's first call on a cold disk takes a few seconds, a hung one for ever.
PROBE_TIMEOUT = 30.0


class NoCompiler(HipportError):
    pass


@dataclass(frozen=True)
class Compiler:
    path: str
    hip_version: str | None  # "5.2"
    clang_version: str | None  # "15.0.6"
    env: tuple[tuple[str, str], ...]  # the environment it runs with (HIP_PLATFORM=amd)

    @property
    def description(self) -> str:
        """``hipcc (HIP 5.2, clang 15.0.6)``."""
        parts = [f"HIP {self.hip_version}" if self.hip_version else "HIP version unknown"]
        if self.clang_version:
            parts.append(f"clang {self.clang_version}")
        return f"hipcc ({', '.join(parts)})"

    def environ(self) -> dict[str, str]:
        return dict(self.env)


def candidates(system: System, given: str | None) -> list[tuple[str, str]]:
    """(where it came from, path or name) in the order they are tried."""
    found: list[tuple[str, str]] = []
    if given:
        found.append(("--hipcc", given))
    if system.env.get("HIPCC"):
        found.append(("HIPCC", system.env["HIPCC"]))
    if system.env.get("ROCM_PATH"):
        found.append(("ROCM_PATH", str(Path(system.env["ROCM_PATH"]) / "bin" / "hipcc")))
    found.append(("PATH", "hipcc"))
    return found


def _runnable(system: System, name: str) -> str | None:
    if os.sep in name:
        path = Path(name)
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return system.find(name)


def find_compiler(system: System, given: str | None = None,
                  timeout: float = PROBE_TIMEOUT) -> Compiler:
    """The first hipcc that runs; ``NoCompiler`` names every place tried.
    An explicit ``--hipcc`` or ``HIPCC`` that is not there is an error by
    itself: falling back would verify with another compiler than asked.
    Each ``--version`` probe gets ``timeout`` seconds, ``PROBE_TIMEOUT`` at most."""
    tried: list[str] = []
    env = dict(system.env)
    env["HIP_PLATFORM"] = "amd"  # hipcc 5 picks NVIDIA as soon as it sees nvcc
    env.pop("HIPCC_VERBOSE", None)
    for source, name in candidates(system, given):
        path = _runnable(system, name)
        where = f"{source}: {name}" if source != "PATH" else "hipcc on PATH"
        if path is None:
            tried.append(f"{where} (not found)")
            if source in ("--hipcc", "HIPCC"):
                break
            continue
        answer = system.run([path, "--version"], env, min(timeout, PROBE_TIMEOUT))
        if not answer.ok:
            tried.append(f"{where} ({answer.why()})")
            if source in ("--hipcc", "HIPCC"):
                break
            continue
        hip = _HIP_VERSION.search(answer.stdout)
        clang = _CLANG_VERSION.search(answer.stdout)
        return Compiler(path, f"{hip[1]}.{hip[2]}" if hip else None,
                        clang[1] if clang else None, tuple(sorted(env.items())))
    raise NoCompiler("no HIP compiler to verify with; tried " + "; ".join(tried)
                     + ". Install hipcc (Debian: apt install hipcc; ROCm: hip-dev) or "
                     "name it with --hipcc PATH")
