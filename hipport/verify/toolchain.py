"""The build tools that go with the chosen hipcc (``verify --build``).

* hipport's ROCm toolchain (``scripts/bootstrap.sh --toolchain``): the
  wrappers in each of its folders (``${HIPPORT_TOOLCHAIN_CACHE:-/var/cache/hipport}/bin``
  for ROCm 6.4, ``.../rocm-7.2/bin`` for 7.2) run cmake and make in the same
  chroot as that folder's hipcc, whose ROCm root is ``/usr``.
  The chroot has the thin hipBLAS, hipSPARSE and hipSOLVER shared objects
  without rocBLAS, rocSPARSE and rocSOLVER (docs/toolchains.md): GNU ld
  refuses to link an executable against them, lld links it.  So every
  link of this toolchain uses lld (``-fuse-ld=lld``, with the Clang folder
  where ``ld.lld`` is for GCC, ``-B``), and the output says so.
* any other hipcc (``$ROCM_PATH``, ``/opt/rocm``, ``--hipcc``, PATH): the
  ROCm root is the folder above its ``bin``; cmake and make are the
  machine's, found on PATH, with ``ROCM_PATH`` and ``CMAKE_PREFIX_PATH``
  pointing at that root."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hipport.buildfiles.project import BuildTools
from hipport.doctor.hipcc import PROBE_TIMEOUT, toolchain_roots
from hipport.doctor.system import System
from hipport.errors import HipportError
from hipport.verify.compiler import Compiler

_SYSTEM_PREFIXES = ("/usr", "/usr/local", "/")
LLD_WHY = ("hipport's ROCm toolchain has hipBLAS, hipSPARSE and hipSOLVER without rocBLAS, "
           "rocSPARSE and rocSOLVER: GNU ld refuses to link executables against them, lld "
           "links them (docs/toolchains.md)")


class NoBuildTool(HipportError):
    """A build tool the project needs cannot be run: no build can be verified."""


@dataclass(frozen=True)
class Toolchain:
    tools: BuildTools
    where: tuple[tuple[str, str], ...]  # ("cmake", "/var/cache/hipport/bin/cmake"): for the user


def is_toolchain(system: System, compiler: Compiler) -> bool:
    """``compiler`` is a wrapper of hipport's toolchain (any of its ROCms,
    however it was chosen: ``--hipcc .../rocm-7.2/bin/hipcc`` too)."""
    return Path(compiler.path).parent in toolchain_roots(system)


def find_toolchain(system: System, compiler: Compiler, programs: tuple[str, ...],
                   timeout: float = PROBE_TIMEOUT) -> Toolchain:
    """The tools beside ``compiler``; each of ``programs`` must answer
    ``--version`` (else ``NoBuildTool``, naming what was tried)."""
    if is_toolchain(system, compiler):
        tools = _wrapped(system, compiler, timeout)
    else:
        tools = _host(system, compiler)
    where: list[tuple[str, str]] = []
    env = {k: v for k, v in {**compiler.environ(), **dict(tools.env)}.items()
           if k not in tools.unset}
    for name in programs:
        argv = tools.program(name)
        answer = system.run([*argv, "--version"], env, min(timeout, PROBE_TIMEOUT))
        if not answer.ok:
            raise NoBuildTool(f"cannot run {name} ({' '.join(argv)}: {answer.why()}), which "
                              f"builds the project with {compiler.description}; install it, "
                              "or verify the translation units alone with --units")
        where.append((name, argv[0] if os.path.isabs(argv[0]) else
                      system.find(argv[0]) or argv[0]))
    return Toolchain(tools, tuple(where))


def _wrapped(system: System, compiler: Compiler, timeout: float) -> BuildTools:
    folder = Path(compiler.path).parent
    programs = tuple((name, (str(folder / name),)) for name in ("cmake", "make"))
    root = "/usr"
    flags = ["-fuse-ld=lld"]
    clang = system.run([str(folder / "hipconfig"), "--hipclangpath"], compiler.environ(),
                       min(timeout, PROBE_TIMEOUT))
    if clang.ok and clang.stdout.strip().startswith("/"):
        flags.append(f"-B{clang.stdout.strip().splitlines()[0]}")  # where GCC finds ld.lld
    # ROCM_PATH is left to the chroot's tools: the user's names another
    # ROCm (hidden in the chroot), and CMake's HIP support, given /usr, looks
    # for its package in /usr/lib/cmake, not in Debian's multiarch folder.
    return BuildTools(f"{root}/bin/hipcc", programs, root, (("HIP_PLATFORM", "amd"),),
                      ("ROCM_PATH", "HIP_PATH", "CMAKE_PREFIX_PATH"), tuple(flags), LLD_WHY)


def _host(system: System, compiler: Compiler) -> BuildTools:
    root = _root(system, compiler)
    programs = tuple((name, (system.find(name) or name,)) for name in ("cmake", "make"))
    env = [("HIP_PLATFORM", "amd")]
    if root not in _SYSTEM_PREFIXES:
        # A distribution's root is left to CMake: given ROCM_PATH=/usr, its HIP
        # support looks for hip-lang in /usr/lib/cmake, not in the multiarch folder.
        env.append(("ROCM_PATH", root))
        prefix = system.env.get("CMAKE_PREFIX_PATH", "")
        env.append(("CMAKE_PREFIX_PATH", f"{root}{os.pathsep}{prefix}" if prefix else root))
        env.append(("PATH", f"{root}/bin{os.pathsep}{system.env.get('PATH', '')}"))
    return BuildTools(compiler.path, programs, root, tuple(env))


def _root(system: System, compiler: Compiler) -> str:
    if compiler.chosen_by == "ROCM_PATH" and system.env.get("ROCM_PATH", "").strip():
        return system.env["ROCM_PATH"].strip().rstrip("/") or "/"
    return str(Path(compiler.path).parent.parent)
