"""`hipport verify`: does the converted tree build, and do its translation
units compile with hipcc?

Two modes, chosen by ``choose_mode``:

* build (the default when every path is a folder with a project: a build
  file of a system that can build): ``build.find_projects`` ->
  ``compiler.find_compiler`` -> ``toolchain.find_toolchain`` ->
  ``build.build_projects`` -> BuildVerification (a result per project);
* units (``--units``, or no build file): ``units.find_units`` (each with
  its flags, compiled as its build would) -> ``compiler.find_compiler`` ->
  ``session.verify_units`` -> Verification (a result per unit)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping

from hipport.buildfiles import build_systems
from hipport.buildfiles.project import Configuration
from hipport.doctor.system import System
from hipport.errors import UsageError
from hipport.suggest import did_you_mean
from hipport.values import time_limit
from hipport.verify.build import (
    DEFAULT_BUILD_TIMEOUT,
    BuildVerification,
    Project,
    build_projects,
    check_build_dir,
    find_projects,
)
from hipport.verify.build import Settings as BuildSettings
from hipport.verify.buildflags import build_files_in, unreadable
from hipport.verify.compiler import Compiler, NoCompiler, check_targets, find_compiler
from hipport.verify.sandbox import FLAG as NO_SANDBOX
from hipport.verify.sandbox import NoSandbox, find_bwrap
from hipport.verify.session import (
    DEFAULT_TIMEOUT,
    Settings,
    UnitResult,
    Verification,
    verify_units,
)
from hipport.verify.toolchain import NoBuildTool, find_toolchain
from hipport.verify.units import Unit, find_units, unit_paths

__all__ = ["BuildVerification", "Compiler", "Configuration", "NoBuildTool", "NoCompiler",
           "NoSandbox", "Request", "Settings",
           "Unit", "UnitResult", "Verification", "DEFAULT_ARCH", "DEFAULT_BUILD_TIMEOUT",
           "DEFAULT_TIMEOUT", "choose_mode", "probe", "run", "tree_offload_arch"]
BUILD, UNITS = "build", "units"

DEFAULT_ARCH = "gfx90a"
_ARCH = re.compile(r"(?:--offload-arch[= ]|(?:CMAKE_)?HIP_ARCHITECTURES\s+\"?|"
                   r"AMDGPU_TARGETS\s+\"?)(gfx[0-9a-f]+)")


@dataclass(frozen=True)
class Request:
    paths: tuple[Path, ...]
    hipcc: str | None = None
    offload_arch: tuple[str, ...] = ()  # empty: from the build files, else gfx90a
    compile_commands: Path | None = None
    extra_args: tuple[str, ...] = ()
    syntax_only: bool = False
    timeout: float | None = None  # None: DEFAULT_TIMEOUT per unit, DEFAULT_BUILD_TIMEOUT per step
    jobs: int = 0
    originals: tuple[tuple[Path, Path], ...] = ()  # converted file -> its CUDA original
    mode: str | None = None  # BUILD, UNITS; None: choose_mode decides
    build_dir: Path | None = None  # --build-dir: builds kept there
    build_system: str | None = None  # --build-system: the projects of that one only
    sandbox: bool = True  # build in bwrap's sandbox; False: --no-sandbox
    configuration: Configuration = Configuration()  # -D NAME=VALUE, --make-var NAME=VALUE


def tree_offload_arch(paths: tuple[Path, ...]) -> str | None:
    """The first AMD target the top-level build files name
    (``CMAKE_HIP_ARCHITECTURES``, ``--offload-arch=``): one target finds the
    compile errors; each further one costs a whole device compilation."""
    for root in paths:
        folder = root if root.is_dir() else root.parent
        for system in build_systems().values():
            for path in build_files_in(system, folder):
                try:
                    text = path.read_text(encoding="latin-1")
                except OSError:
                    continue
                found = _ARCH.search(text)
                if found:
                    return found[1]
    return None


def choose_mode(request: Request) -> tuple[str, list[Project]]:
    """``--build`` or ``--units``, and the projects to build.  Without
    either: build when every path is a folder holding a project, and no
    option of the unit mode (``-p``, ``--syntax-only``) was given."""
    _exist(request.paths)
    _known_system(request.build_system)
    units_only = [name for name, given in (("-p/--compile-commands",
                                            request.compile_commands is not None),
                                           ("--syntax-only", request.syntax_only)) if given]
    build_only = [name for name, given in (("--build-dir", request.build_dir is not None),
                                           ("--build-system", request.build_system is not None))
                  if given]
    if request.mode == UNITS and not request.sandbox:
        raise UsageError(f"{NO_SANDBOX} only applies to --build (--units runs no code of the "
                         "project's, only hipcc)")
    if request.mode == UNITS or (request.mode is None and units_only):
        if build_only:
            raise UsageError(f"{' and '.join(build_only)} only apply to --build")
        return UNITS, []
    if request.mode == BUILD and units_only:
        raise UsageError(f"{' and '.join(units_only)} only apply to --units")
    files = [p for p in request.paths if not p.is_dir()]
    projects = [] if files else find_projects(request.paths, request.build_system)
    bare = [p for p in request.paths
            if p.is_dir() and not any(x.top == p.resolve() for x in projects)]
    if files or bare:
        if request.mode == BUILD or build_only:
            which = files[0] if files else bare[0]
            why = "is a file" if files else "has no build file hipport can build " + \
                ("with " + request.build_system if request.build_system else
                 "(a CMakeLists.txt or a Makefile)")
            raise UsageError(f"--build builds projects, and {which} {why}: verify its "
                             "translation units with --units")
        return UNITS, []
    if request.build_dir is not None:
        check_build_dir(request.build_dir, request.paths)
    return BUILD, projects


def _known_system(name: str | None) -> None:
    names = [s.name for s in build_systems().values() if s.programs]
    if name is not None and name not in names:
        raise UsageError(f"--build-system {name}: not a build system hipport can build "
                         f"({', '.join(names)}){did_you_mean(name, names)}")


def _exist(paths: tuple[Path, ...]) -> None:
    for path in paths:
        try:
            there = path.exists()
        except OSError as error:
            raise unreadable(path, error) from None
        if not there:
            raise UsageError(f"{path}: no such file or directory")


def probe(request: Request, system: System | None = None) -> tuple[str, Compiler]:
    """Before anything is written (``convert --verify``): the mode, and the
    compiler (and for a build, the sandbox and the build tools) that will
    verify; raises ``NoCompiler``, ``NoSandbox`` or ``NoBuildTool``."""
    system = system or System.current()
    request = _absolute(request)
    mode, projects = choose_mode(request)
    timeout = _timeout(request, mode)
    bwrap = _bwrap(system, request, mode, "hipport convert --verify")
    compiler = find_compiler(system, request.hipcc, timeout)
    if mode == BUILD:
        find_toolchain(system, compiler, _programs(projects), timeout, bwrap)
    return mode, compiler


def _absolute(request: Request) -> Request:
    """``--build-dir`` made absolute once: each build runs in a folder of
    its own, where a relative one would be another folder."""
    if request.build_dir is None:
        return request
    return replace(request, build_dir=Path(os.path.abspath(request.build_dir)))


def _bwrap(system: System, request: Request, mode: str, command: str) -> str | None:
    """The sandbox's bwrap for a build (None: --units, or --no-sandbox)."""
    if mode != BUILD or not request.sandbox:
        return None
    return find_bwrap(system, command)


def _programs(projects: list[Project]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for x in projects for p in x.system.programs))


def _timeout(request: Request, mode: str) -> float:
    if request.timeout is not None:
        return request.timeout
    return DEFAULT_BUILD_TIMEOUT if mode == BUILD else DEFAULT_TIMEOUT


def run(request: Request, system: System | None = None,
        observe: Callable[[object], None] | None = None,
        found: Callable[[int], None] | None = None,
        say: Callable[[str], None] | None = None,
        command: str = "hipport verify") -> Verification | BuildVerification:
    """Find the compiler and the units or projects, compile or build them.
    ``found`` hears their number before work starts (a progress bar's
    total), ``observe`` each result, ``say`` what the user must know before
    (a build without a sandbox); ``command`` is the one the user ran."""
    if request.timeout is not None:
        time_limit("--timeout", request.timeout)
    request = _absolute(request)
    mode, projects = choose_mode(request)
    timeout = _timeout(request, mode)
    system = system or System.current()
    bwrap = _bwrap(system, request, mode, command)
    compiler = find_compiler(system, request.hipcc, timeout)
    tree_arch = None if request.offload_arch else tree_offload_arch(request.paths)
    arch = request.offload_arch or (tree_arch or DEFAULT_ARCH,)
    given = "--offload-arch" if request.offload_arch else \
        "the build files' first target" if tree_arch else "the default target"
    check_targets(system, compiler, arch, given, timeout)
    originals: Mapping[Path, Path] = {k.resolve(): v.resolve() for k, v in request.originals}
    if mode == BUILD:
        toolchain = find_toolchain(system, compiler, _programs(projects), timeout, bwrap)
        if say is not None and bwrap is None:
            say(f"{NO_SANDBOX}: the build runs the project's own CMake and Make code without a "
                "sandbox, with your rights, files and network")
        if found is not None:
            found(len(projects))
        own = not request.offload_arch and (tree_arch is not None or any(
            tree_offload_arch((p.root,)) for p in projects))
        building = BuildSettings(arch, timeout, request.jobs, request.extra_args,
                                 request.build_dir, own, bool(request.offload_arch),
                                 request.configuration)
        verification = build_projects(projects, compiler, toolchain, building, system.env,
                                      originals, observe)
        roots = [p.root for p in projects]
        verification.outside = sum(not any(u == r or u.is_relative_to(r) for r in roots)
                                   for u in unit_paths(request.paths))
        return verification
    units = find_units(request.paths, request.compile_commands, request.configuration)
    settings = Settings(arch, request.extra_args, request.syntax_only, timeout, request.jobs)
    if found is not None:
        found(len(units))
    roots = [p.resolve() if p.is_dir() else p.resolve().parent for p in request.paths]
    return verify_units(units, compiler, settings, roots, originals, observe)
