"""Which hipcc doctor and verify use, and why: one chooser for both.

The places are looked at in the order of ``PLACES``, newest ROCm first: a
hipcc the user named (``--hipcc``, ``$HIPCC``; doctor's ``--root``), then
the ROCms of hipport's toolchain (``scripts/bootstrap.sh --toolchain`` sets
up ROCm 7.2 behind ``${HIPPORT_TOOLCHAIN_CACHE:-/var/cache/hipport}/rocm-7.2/bin``
and ROCm 6.4 behind ``.../bin``, looked at in that order),
``$ROCM_PATH``, ``/opt/rocm``, the newest ``/opt/rocm-X.Y.Z``, and ``hipcc``
on PATH.  A hipcc is taken when it answers ``hipcc --version`` with a HIP
version line within the probe's time limit; one that does not is passed
over (and said so), except where the user named it: then nothing else
stands in for it.

Every path is made absolute here, once: a relative ``--hipcc bin/hipcc`` is
relative to the folder hipport was started in, whatever folder the compiler
later runs in.  A place that cannot be looked into (a ROCm folder with mode
0000) is passed over with the reason, never an exception."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hipport.doctor.model import parse_version
from hipport.doctor.system import System, is_file

TOOLCHAIN_ENV = "HIPPORT_TOOLCHAIN_CACHE"
TOOLCHAIN_CACHE = "/var/cache/hipport"
# The toolchain's wrapper folders and the chroot each one runs, relative to
# the cache, newest ROCm first (scripts/setup-rocm-modern.sh).
TOOLCHAINS: tuple[tuple[str, str], ...] = (("rocm-7.2/bin", "rocm-7.2/root"),
                                           ("bin", "rocm-sid"))
TOOLCHAIN_RUNNER = "rocm-sid-run"
# In a wrapper folder: the path of the chroot its tools run in, one line
# (setup-rocm-modern.sh writes it, also for --write-wrappers DIR).
ROOT_FILE = ".root"
# hipcc --version, at most (verify: never longer than --timeout either): the
# toolchain wrapper's first call on a cold disk takes a few seconds, a hung
# hipcc for ever.
PROBE_TIMEOUT = 30.0

_HIP_VERSION = re.compile(r"^HIP version: (\d+)\.(\d+)(?:\.(\d+))?\S*", re.M)
_CLANG_VERSION = re.compile(r"clang version (\d+(?:\.\d+)*)")

Named = tuple[str, str]  # ("--hipcc", "bin/hipcc"): the option and what the user gave


@dataclass(frozen=True)
class Place:
    name: str  # "--hipcc", "toolchain", "PATH"
    why: str  # the reason it is chosen, for the user
    # Where the hipcc of this place would be (absolute, or a name to look up on PATH).
    where: Callable[[System, Named | None], list[str]]
    named: bool = False  # the user named it: if it is missing, nothing stands in for it
    binding: bool = False  # a hipcc found here is the one, even when it does not run


def _named(option: str) -> Callable[[System, Named | None], list[str]]:
    return lambda system, named: [named[1]] if named and named[0] == option and named[1] else []


def _hipcc_variable(system: System, named: Named | None) -> list[str]:
    return [system.env["HIPCC"]] if system.env.get("HIPCC") else []


def toolchain_cache(system: System) -> Path:
    value = system.env.get(TOOLCHAIN_ENV, "")
    return Path(value) if value else system.path(TOOLCHAIN_CACHE)


def toolchain_roots(system: System) -> dict[Path, Path]:
    """Each wrapper folder of hipport's toolchain and the chroot its tools
    run in (what its ``.root`` names, else the usual place), newest ROCm first."""
    cache = toolchain_cache(system)
    return {cache / folder: wrapper_chroot(cache / folder) or cache / root
            for folder, root in TOOLCHAINS}


def wrapper_chroot(folder: Path) -> Path | None:
    """The chroot a folder of toolchain wrappers runs its tools in, as its
    ``.root`` names it; None for a folder without one (a ROCm's own bin)."""
    try:
        text = (folder / ROOT_FILE).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return Path(text) if os.path.isabs(text) else None


def _toolchain(system: System, named: Named | None) -> list[str]:
    return [str(folder / "hipcc") for folder in toolchain_roots(system)]


def _rocm_path(system: System, named: Named | None) -> list[str]:
    value = system.env.get("ROCM_PATH", "").strip()
    return [str(Path(value) / "bin" / "hipcc")] if value else []


def _opt_rocm(system: System, named: Named | None) -> list[str]:
    return [str(system.path("/opt/rocm/bin/hipcc"))]


def _opt_versioned(system: System, named: Named | None) -> list[str]:
    try:
        found = [(parse_version(p.name[5:]) or (), p) for p in system.path("/opt").glob("rocm-*")]
    except OSError:
        return []
    return [str(p / "bin" / "hipcc") for _, p in sorted(found, reverse=True)]


def _on_path(system: System, named: Named | None) -> list[str]:
    return ["hipcc"]


# The one order, newest ROCm first (issue 26); doctor and verify both use it.
PLACES: tuple[Place, ...] = (
    Place("--hipcc", "named with --hipcc", _named("--hipcc"), named=True, binding=True),
    Place("HIPCC", "named by the environment variable HIPCC", _hipcc_variable, named=True,
          binding=True),
    Place("--root", "the hipcc of the ROCm root named with --root", _named("--root"),
          binding=True),
    Place("toolchain", "hipport's ROCm toolchain (scripts/bootstrap.sh --toolchain), "
          "looked at first", _toolchain),
    Place("ROCM_PATH", "$ROCM_PATH/bin/hipcc", _rocm_path),
    Place("/opt/rocm", "/opt/rocm/bin/hipcc", _opt_rocm),
    Place("/opt/rocm-X.Y.Z", "the newest /opt/rocm-X.Y.Z", _opt_versioned),
    Place("PATH", "the first hipcc on PATH", _on_path),
)


@dataclass(frozen=True)
class Looked:
    """One hipcc looked at: where, and why it was not taken ("" if it was)."""

    place: Place
    given: str  # as the place gave it ("bin/hipcc", "hipcc")
    path: str | None  # absolute; None when there is none
    problem: str = ""

    def __str__(self) -> str:
        where = "hipcc on PATH" if self.place.name == "PATH" else \
            f"{self.place.name}: {self.given}"
        if self.path is not None and self.path != self.given:
            where += f" ({self.path})"
        return f"{where} ({self.problem})" if self.problem else where


@dataclass(frozen=True)
class Choice:
    """The hipcc to use.  ``path`` is set when one was found; ``problem`` says
    why it cannot be used (a named hipcc that does not run), "" when it can."""

    looked: tuple[Looked, ...]  # every hipcc looked at, the chosen one last
    path: str | None = None
    place: Place | None = None
    problem: str = ""
    version_text: str = ""  # "6.4.43484-9999": hipcc's HIP version as it says it
    hip_version: str | None = None  # "6.4"
    clang_version: str | None = None  # "21.1.8"
    sysroot: Path = Path("/")  # where its tools see "/" (the toolchain's chroot)
    runner: tuple[str, ...] = ()  # runs another of its tools: runner + [tool, args...]

    @property
    def usable(self) -> bool:
        return self.path is not None and not self.problem

    @property
    def passed_over(self) -> list[Looked]:
        """hipcc that are there but were not taken (absent places are not listed)."""
        return [item for item in self.looked[:-1] if item.path is not None and item.problem]

    @property
    def reason(self) -> str:
        """Why this one: ``the first hipcc on PATH; passed over toolchain: ...``."""
        if self.place is None:
            return ""
        over = "; ".join(map(str, self.passed_over))
        return self.place.why + (f"; passed over {over}" if over else "")

    @property
    def tried(self) -> str:
        return "; ".join(map(str, self.looked))

    def host_path(self, path: str) -> Path:
        """A path its tools print (``hipconfig --hipclangpath``) as this machine sees it."""
        return self.sysroot / path.lstrip("/") if os.path.isabs(path) else Path(path)


def probe_env(system: System) -> dict[str, str]:
    """The environment hipcc runs with: the user's, with the AMD platform
    (hipcc 5 picks NVIDIA as soon as it sees nvcc) and no verbose output."""
    env = dict(system.env)
    env["HIP_PLATFORM"] = "amd"
    env.pop("HIPCC_VERBOSE", None)
    return env


def _absolute(system: System, given: str) -> tuple[str | None, str]:
    """(the absolute path of an executable file ``given`` names, or None; why not)."""
    if os.sep not in given:
        found = system.find(given)
        if found is None:
            return None, "not found"
        given = found
    path = Path(os.getcwd(), given) if not os.path.isabs(given) else Path(given)
    try:
        if not path.is_file():
            return None, "not found"
    except OSError as exc:  # a folder on the way that may not be looked into
        return str(path), f"cannot be looked at: {exc.strerror or exc}"
    if not os.access(path, os.X_OK):
        return str(path), "not executable"
    return str(path), ""


def _toolchain_parts(system: System, path: str) -> tuple[Path, tuple[str, ...]]:
    """The chroot and runner of the toolchain's wrappers, when ``path`` is
    one: in the cache's folders, or in any folder whose ``.root`` names its
    chroot (``setup-rocm-modern.sh --write-wrappers DIR``, a copied cache)."""
    folder = Path(path).parent
    root = toolchain_roots(system).get(folder) or wrapper_chroot(folder)
    if root is None:
        return Path("/"), ()
    runner = folder / TOOLCHAIN_RUNNER
    return root, (str(runner),) if is_file(runner) else ()


def choose_hipcc(system: System, named: Named | None = None,
                 timeout: float = PROBE_TIMEOUT) -> Choice:
    """The first hipcc of ``PLACES`` that runs and says which HIP it is; each
    ``--version`` probe gets ``timeout`` seconds, ``PROBE_TIMEOUT`` at most.
    Never raises: what was not found or did not run is in ``looked``."""
    looked: list[Looked] = []
    env = probe_env(system)
    for place in PLACES:
        for given in place.where(system, named):
            path, problem = _absolute(system, given)
            if path is not None and any(item.path == path for item in looked):
                continue  # ROCM_PATH=/opt/rocm: asked once
            version = clang = None
            text = ""
            if path is not None and not problem:
                answer = system.run([path, "--version"], env, min(timeout, PROBE_TIMEOUT))
                hip = _HIP_VERSION.search(answer.stdout) if answer.ok else None
                if not answer.ok:
                    problem = answer.why()
                elif hip is None:
                    problem = _not_hip(answer.stdout)
                else:
                    text = hip[0].split(": ", 1)[1]
                    version = f"{hip[1]}.{hip[2]}"
                    found = _CLANG_VERSION.search(answer.stdout)
                    clang = found[1] if found else None
            looked.append(Looked(place, given, path, problem))
            if path is not None and (not problem or place.binding):
                sysroot, runner = _toolchain_parts(system, path)
                return Choice(tuple(looked), path, place, problem, text, version, clang,
                              sysroot, runner)
            if place.named:
                return Choice(tuple(looked), problem=problem or "not found")
    return Choice(tuple(looked))


def _not_hip(output: str) -> str:
    first = next((line.strip() for line in output.splitlines() if line.strip()), "")
    shown = f": {first[:80]!r}" if first else " (it printed nothing)"
    return f"its --version says no 'HIP version: X.Y'{shown}"
