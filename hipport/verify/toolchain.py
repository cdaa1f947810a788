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
  pointing at that root.

In the build's sandbox (``hipport.verify.sandbox``) the toolchain's wrappers
cannot run (their ``unshare`` and ``chroot`` need capabilities the sandbox
drops): the sandbox's root is then the chroot their folder's ``.root``
names, and the chroot's own ``/usr/bin/cmake`` and ``make`` run there.  A
host toolchain's sandbox shows ``/``, and again the folders its tools live
in when they are in a hidden one (a ROCm under ``$HOME``)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from hipport.buildfiles.project import BuildTools
from hipport.doctor.hipcc import PROBE_TIMEOUT, ROOT_FILE, toolchain_roots, wrapper_chroot
from hipport.doctor.system import System, is_file
from hipport.errors import HipportError
from hipport.verify.compiler import Compiler
from hipport.verify.sandbox import FLAG, NoSandbox, Sandbox, bwrap_error, sandbox_env, sandbox_for

_SYSTEM_PREFIXES = ("/usr", "/usr/local", "/")
CHROOT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
LLD_WHY = ("hipport's ROCm toolchain has hipBLAS, hipSPARSE and hipSOLVER without rocBLAS, "
           "rocSPARSE and rocSOLVER: GNU ld refuses to link executables against them, lld "
           "links them (docs/toolchains.md)")


class NoBuildTool(HipportError):
    """A build tool the project needs cannot be run: no build can be verified."""


@dataclass(frozen=True)
class Toolchain:
    tools: BuildTools
    where: tuple[tuple[str, str], ...]  # ("cmake", "/var/cache/hipport/bin/cmake"): for the user
    bwrap: str | None = None  # the sandbox's bwrap; None: built without one (--no-sandbox)
    sysroot: Path = Path("/")  # the sandbox's root: "/", or the toolchain's chroot
    needs: tuple[Path, ...] = ()  # folders of this machine its tools read (shown if hidden)

    def sandbox(self, env: Mapping[str, str], writable: Sequence[Path] = ()) -> Sandbox | None:
        """The sandbox of a step, for a user whose environment is ``env``."""
        if self.bwrap is None:
            return None
        return sandbox_for(self.bwrap, self.sysroot, env, self.needs, writable)


def is_toolchain(system: System, compiler: Compiler) -> bool:
    """``compiler`` is a wrapper of hipport's toolchain (any of its ROCms,
    however it was chosen: ``--hipcc .../rocm-7.2/bin/hipcc`` too), or of a
    chroot that names itself in its folder's ``.root``."""
    folder = Path(compiler.path).parent
    return folder in toolchain_roots(system) or is_file(folder / ROOT_FILE)


def find_toolchain(system: System, compiler: Compiler, programs: tuple[str, ...],
                   timeout: float = PROBE_TIMEOUT, bwrap: str | None = None) -> Toolchain:
    """The tools beside ``compiler``, to run in a sandbox made with
    ``bwrap`` (None: without one); each of ``programs`` must answer
    ``--version`` there (else ``NoBuildTool``, naming what was tried, or
    ``NoSandbox`` when the sandbox cannot be made)."""
    sysroot = Path("/")
    if not is_toolchain(system, compiler):
        tools = _host(system, compiler)
    elif bwrap is None:
        tools = _wrapped(system, compiler, timeout)
    else:
        sysroot = _chroot(Path(compiler.path).parent)
        tools = _wrapped(system, compiler, timeout, inside=True)
    needs = () if sysroot != Path("/") else _folders(compiler, tools)
    toolchain = Toolchain(tools, (), bwrap, sysroot, needs)
    sandbox = toolchain.sandbox(system.env)
    where: list[tuple[str, str]] = []
    env = {k: v for k, v in {**compiler.environ(), **dict(tools.env)}.items()
           if k not in tools.unset}
    for name in programs:
        argv = tools.program(name)
        command, command_env = [*argv, "--version"], env
        if sandbox is not None:
            command = sandbox.command(command, sandbox_env(system.env, dict(tools.env)), Path("/"))
            command_env = {}
        answer = system.run(command, command_env, min(timeout, PROBE_TIMEOUT))
        if not answer.ok:
            why = bwrap_error(answer.text) if sandbox is not None else None
            if why is not None:
                raise NoSandbox(f"{bwrap} cannot make the build's sandbox here ({why}); "
                                f"pass {FLAG} to build without one")
            raise NoBuildTool(f"cannot run {name} ({' '.join(argv)}: {answer.why()}), which "
                              f"builds the project with {compiler.description}; install it, "
                              "or verify the translation units alone with --units")
        path = argv[0] if os.path.isabs(argv[0]) else system.find(argv[0]) or argv[0]
        where.append((name, str(sysroot / path.lstrip("/")) if os.path.isabs(path) else path))
    return Toolchain(tools, tuple(where), bwrap, sysroot, needs)


def _chroot(folder: Path) -> Path:
    """The chroot behind a wrapper folder: the path its ``.root`` names."""
    root = wrapper_chroot(folder)
    if root is None or not root.is_dir():
        raise NoSandbox(f"the toolchain's wrappers in {folder} do not name their chroot "
                        f"({folder / ROOT_FILE}): run scripts/setup-rocm-modern.sh again "
                        f"(it rewrites the wrappers only), or pass {FLAG}")
    return root


def _folders(compiler: Compiler, tools: BuildTools) -> tuple[Path, ...]:
    """The folders a host toolchain's tools live in: its ROCm root, hipcc's
    folder, each program's prefix (the folder above its ``bin``)."""
    folders = [Path(tools.rocm_root), Path(compiler.path).parent]
    for _, argv in tools.programs:
        if os.path.isabs(argv[0]):
            folder = Path(os.path.realpath(argv[0])).parent
            folders.append(folder.parent if folder.name == "bin" else folder)
    return tuple(dict.fromkeys(folders))


def _wrapped(system: System, compiler: Compiler, timeout: float,
             inside: bool = False) -> BuildTools:
    """The toolchain's tools: its wrappers, or (``inside``: run in its
    chroot by the sandbox) the chroot's own programs."""
    folder = Path(compiler.path).parent
    programs = tuple((name, (f"/usr/bin/{name}" if inside else str(folder / name),))
                     for name in ("cmake", "make"))
    root = "/usr"
    flags = ["-fuse-ld=lld"]
    clang = system.run([str(folder / "hipconfig"), "--hipclangpath"], compiler.environ(),
                       min(timeout, PROBE_TIMEOUT))
    if clang.ok and clang.stdout.strip().startswith("/"):
        flags.append(f"-B{clang.stdout.strip().splitlines()[0]}")  # where GCC finds ld.lld
    # ROCM_PATH is left to the chroot's tools: the user's names another
    # ROCm (hidden in the chroot), and CMake's HIP support, given /usr, looks
    # for its package in /usr/lib/cmake, not in Debian's multiarch folder.
    env = [("HIP_PLATFORM", "amd")] + ([("PATH", CHROOT_PATH)] if inside else [])
    return BuildTools(f"{root}/bin/hipcc", programs, root, tuple(env),
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
