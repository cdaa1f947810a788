"""Building a converted project with its own build files: what a build
system is given (``BuildTools``, ``BuildSettings``) and what it answers
(``BuildPlan``: the commands that configure and build it, in order), for
``hipport verify --build``.

A build system says how a project of its kind is built
(``BuildSystem.build_plan``); verify runs the plan in a folder outside the
user's tree, under a time limit, and reads what the tools printed."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BuildTools:
    """The toolchain a project is built with: the chosen hipcc and the
    programs beside it (each a command line prefix: a path, or a wrapper
    that runs the tool in the toolchain's chroot), the ROCm root as they
    see it, the environment they need, and the flags every link needs."""

    hipcc: str  # as the build tools see it
    programs: tuple[tuple[str, tuple[str, ...]], ...]  # ("cmake", ("/x/bin/cmake",)), ...
    rocm_root: str  # "/usr" in the toolchain's chroot, "/opt/rocm-6.4.0"
    env: tuple[tuple[str, str], ...] = ()  # set for every step (ROCM_PATH, HIP_PLATFORM, ...)
    unset: tuple[str, ...] = ()  # removed from every step's environment
    link_flags: tuple[str, ...] = ()  # given to every link (-fuse-ld=lld)
    link_why: str = ""  # why, for the user

    def program(self, name: str) -> tuple[str, ...]:
        """The command line prefix that runs ``name`` (``cmake``, ``make``)."""
        return dict(self.programs).get(name, (name,))


@dataclass(frozen=True)
class Configuration:
    """What the user gives a project's configure, the way they build it
    themselves: CMake cache entries (``-D NAME=VALUE``), make variables
    (``make NAME=VALUE``); each system takes its own."""

    cmake: tuple[tuple[str, str], ...] = ()
    make: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class BuildSettings:
    tools: BuildTools
    offload_arch: tuple[str, ...]  # the GPU targets to build for, where the files name none
    jobs: int = 1  # parallel jobs of the build tool
    extra_args: tuple[str, ...] = ()  # more compiler flags (verify --hipcc-arg)
    arch_given: bool = False  # the user named offload_arch (--offload-arch): build for it too
    configuration: Configuration = Configuration()


@dataclass(frozen=True)
class BuildStep:
    name: str  # "configure", "build"
    argv: tuple[str, ...]
    cwd: Path
    env: tuple[tuple[str, str], ...] = ()  # on top of the tools' environment


@dataclass(frozen=True)
class BuildPlan:
    """How one project is built: ``steps`` run in order, each only when the
    one before succeeded; ``folder`` is where the build writes."""

    folder: Path
    steps: tuple[BuildStep, ...]


@dataclass(frozen=True)
class Target:
    """A target of the project, and whether the build made it."""

    name: str
    built: bool


@dataclass(frozen=True)
class Switch:
    """A condition of a build file that keeps its GPU code out of the build
    with the values given (``if(USE_HIP)`` around ``enable_language(HIP)``)."""

    path: Path
    line: int
    condition: str  # as written: ``USE_HIP``, ``MODEL STREQUAL "hip"``
    turn_on: str  # what makes it true: ``-DUSE_HIP=ON``; "" when hipport cannot say
    # Not a condition but an option() or cache variable that may select the
    # GPU code (``condition`` is its name): its value with the options given.
    default: str | None = None
