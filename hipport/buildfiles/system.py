"""Build systems as registered plug-ins.

A build system (CMake, Make, ...) is one package under ``hipport.buildfiles``
holding a ``BuildSystem`` subclass decorated with ``@build_system``: which
files are its own, how they are read, what the rewrite makes of them, what
the single-source (compat) build makes of them, which compile flags they
give the sources beside them (``hipport verify``), and how a tree is
configured and built with them.  Everything else asks the registry; nothing
tests a build system's name.  CONTRIBUTING.md walks through adding one."""
from __future__ import annotations

import importlib
import pkgutil
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import ClassVar, Mapping, TypeVar

from hipport.buildfiles.project import (
    BuildPlan,
    BuildSettings,
    Configuration,
    Switch,
    Target,
)
from hipport.findings import Finding
from hipport.settings import Settings


class BuildFileSyntaxError(Exception):
    """A build file that cannot be read as its system's language."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class BuildTarget:
    """Something a build file builds (an executable, a library, what a
    Makefile's rules compile), read without running the build."""

    name: str
    build_file: Path  # the file that declares it
    sources: tuple[Path, ...]  # absolute; the files that exist
    include_dirs: tuple[Path, ...] = ()  # absolute: where its #include lines are looked up
    # False: part of its sources could not be read (a value only the build
    # computes); its build file's folder is then taken as a whole.
    complete: bool = True


@dataclass(frozen=True)
class BuildTargets:
    targets: tuple[BuildTarget, ...]
    read: tuple[Path, ...]  # every build file read to find them (included, added)


class BuildSystem(ABC):
    name: ClassVar[str]  # as results and --statistics name it: "cmake", "make"
    title: ClassVar[str]  # as people name it: "CMake"
    file_names: ClassVar[tuple[str, ...]]  # its files' exact names, the one it reads first first
    suffixes: ClassVar[tuple[str, ...]] = ()  # and their suffixes (".cmake")
    # Building (``hipport verify --build``): the programs a build runs, and
    # whether it writes beside the sources (then verify builds a copy).
    programs: ClassVar[tuple[str, ...]] = ()
    builds_in_place: ClassVar[bool] = False
    # Characters its tools cannot take in a project's path (named when a
    # build there fails), each with its name.
    path_characters: ClassVar[tuple[tuple[str, str], ...]] = ()

    def claims(self, path: PurePath | str) -> bool:
        path = PurePath(path)
        return path.name in self.file_names or path.suffix in self.suffixes

    def files_in(self, folder: Path) -> list[Path]:
        """The files of this system that build the sources of ``folder``
        (for ``make``: the one make itself would read)."""
        return [folder / name for name in self.file_names if (folder / name).is_file()][:1]

    @abstractmethod
    def parse(self, text: str) -> object:
        """The file read (raises ``BuildFileSyntaxError``); what the other
        methods are given.  ``text`` is the file's bytes as Latin-1, so string
        offsets are byte offsets."""

    @abstractmethod
    def hip_findings(self, text: str, parsed: object, options: Settings,
                     keep_names: bool = False) -> list[Finding]:
        """The findings that make the file build with HIP.  ``keep_names``:
        variables keep their names (a single-source build gives the CUDA ones
        HIP values)."""

    @abstractmethod
    def single_source(self, text: str, parsed: object, findings: list[Finding],
                      macro: str) -> list[Finding]:
        """``findings`` placed behind a switch, so that the file builds the
        CUDA code as it did and, switched, the HIP one (``--strategy
        compat``); ``macro`` is what the HIP side defines ("": the platform)."""

    @abstractmethod
    def compile_flags(self, path: Path, top: Path, source: Path,
                      configuration: Configuration = Configuration()) -> list[str]:
        """The include paths, macros and language standard ``path`` gives
        ``source`` (a file of its folder or below; ``top``: the tree's top)
        when the project is configured with ``configuration`` (the user's
        ``-D`` values or make variables),
        and, when ``path`` compiles that C++ source, how: ``-x c++``, with
        ``-D__HIP_PLATFORM_AMD__=1`` where the build gives the HIP platform,
        or ``-x hip`` (``hipport.buildfiles.languages.Compiled.flags``)."""

    def build_plan(self, project: Path, folder: Path, settings: BuildSettings
                   ) -> BuildPlan | None:
        """The commands that configure and build the project whose top build
        file is in ``project`` (a folder with one of this system's files and
        none in the folders above it), writing in ``folder`` (an empty folder
        outside the tree; for a system that ``builds_in_place``, ``project``
        is already a copy).  None: this system does not say how."""
        return None

    def target_named(self, made: str) -> str:
        """The project's target a file the build tool made belongs to
        (CMake: ``CMakeFiles/app.dir/main.cpp.o`` -> ``app``)."""
        return made

    def made_targets(self, plan: BuildPlan, output: str) -> tuple[Target, ...]:
        """The project's targets and which were made, from what the build
        printed (``output``) and wrote; () when it cannot tell."""
        return ()

    def gpu_sources(self, plan: BuildPlan, output: str) -> int | None:
        """How many HIP sources the build compiled, from what it printed
        (``output``) and wrote; None when it cannot tell."""
        return None

    def gpu_switches(self, project: Path, configuration: Configuration) -> list[Switch]:
        """The conditions of the project's build files that keep its GPU
        code out of a build configured with ``configuration``."""
        return []

    def targets(self, path: Path, top: Path) -> BuildTargets | None:
        """What the build file ``path`` builds, with the files it reads on the
        way (``top``: the tree's top); None when this system cannot say
        (``hipport report`` then counts every file of the folder as built)."""
        return None


_S = TypeVar("_S", bound=BuildSystem)
BUILD_SYSTEMS: dict[str, BuildSystem] = {}
_discovered = False


def build_system(cls: type[_S]) -> type[_S]:
    """Registers a build system (a class decorator)."""
    if cls.name in BUILD_SYSTEMS:
        raise RuntimeError(f"build system {cls.name!r} is registered twice")
    BUILD_SYSTEMS[cls.name] = cls()
    return cls


def _discover() -> None:
    """Import every build-system package (once): importing is registering."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = __name__.rsplit(".", 1)[0]
    for info in pkgutil.iter_modules([str(Path(__file__).parent)], package + "."):
        if info.ispkg:
            importlib.import_module(info.name)


def build_systems() -> Mapping[str, BuildSystem]:
    _discover()
    return BUILD_SYSTEMS


def system_named(name: str) -> BuildSystem:
    return build_systems()[name]


def system_for(path: PurePath | str) -> BuildSystem | None:
    """The build system whose file ``path`` is, if any."""
    return next((s for s in build_systems().values() if s.claims(path)), None)


