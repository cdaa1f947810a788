"""`hipport verify`: do the converted translation units compile with hipcc?

    paths --units.find_units--> units (with their flags)
          --compiler.find_compiler--> hipcc
          --session.verify_units--> Verification (a result per unit)"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from hipport.buildfiles import build_systems
from hipport.doctor.system import System
from hipport.errors import UsageError
from hipport.values import time_limit
from hipport.verify.buildflags import build_files_in, unreadable
from hipport.verify.compiler import Compiler, NoCompiler, check_targets, find_compiler
from hipport.verify.session import (
    DEFAULT_TIMEOUT,
    Settings,
    UnitResult,
    Verification,
    verify_units,
)
from hipport.verify.units import Unit, find_units

__all__ = ["Compiler", "NoCompiler", "Request", "Settings", "Unit", "UnitResult",
           "Verification", "DEFAULT_ARCH", "DEFAULT_TIMEOUT", "run", "tree_offload_arch"]

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
    timeout: float = DEFAULT_TIMEOUT
    jobs: int = 0
    originals: tuple[tuple[Path, Path], ...] = ()  # converted file -> its CUDA original


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


def run(request: Request, system: System | None = None,
        observe: Callable[[UnitResult], None] | None = None,
        found: Callable[[int], None] | None = None) -> Verification:
    """Find the compiler and the units, compile them.  ``found`` hears the
    number of units before compiling starts (a progress bar's total)."""
    time_limit("--timeout", request.timeout)
    for path in request.paths:
        try:
            there = path.exists()
        except OSError as error:
            raise unreadable(path, error) from None
        if not there:
            raise UsageError(f"{path}: no such file or directory")
    system = system or System.current()
    compiler = find_compiler(system, request.hipcc, request.timeout)
    units = find_units(request.paths, request.compile_commands)
    tree_arch = None if request.offload_arch else tree_offload_arch(request.paths)
    arch = request.offload_arch or (tree_arch or DEFAULT_ARCH,)
    given = "--offload-arch" if request.offload_arch else \
        "the build files' first target" if tree_arch else "the default target"
    check_targets(system, compiler, arch, given, request.timeout)
    settings = Settings(arch, request.extra_args, request.syntax_only, request.timeout,
                        request.jobs)
    if found is not None:
        found(len(units))
    roots = [p.resolve() if p.is_dir() else p.resolve().parent for p in request.paths]
    originals: Mapping[Path, Path] = {k.resolve(): v.resolve() for k, v in request.originals}
    return verify_units(units, compiler, settings, roots, originals, observe)


