"""The sandbox every configure and build step of ``hipport verify --build``
runs in: the repository's own CMake and Make code (configure scripts,
``execute_process``, recipes) is untrusted.  The tool is bubblewrap
(``bwrap``, Debian's ``bubblewrap``), a well-kept one; hipport only says
what the step may see (``bwrap_argv``, a pure function).

What a step sees (docs/verify.md, Sandbox):

* the file system its tools belong to, read-only: the machine's ``/`` for a
  host toolchain, the chroot of hipport's ROCm toolchain (the path its
  wrapper folder's ``.root`` names) for that one, whose own cmake and make
  then run directly (the wrappers' ``unshare`` + ``chroot`` cannot nest in
  a sandbox without capabilities);
* not the user's private folders: ``HIDDEN``, ``$HOME`` and ``$TMPDIR`` are
  empty in-memory folders (writes there vanish with the step), the files of
  ``HIDDEN_FILES`` unreadable; what the tools need from there (a ROCm under
  ``$HOME``) is shown again, read-only;
* read-write: the scratch folder only (the tree's copy, the build folders,
  the step's ``HOME`` and ``TMPDIR``), at its own path;
* a fresh ``/dev`` and ``/proc``, no network (its own network namespace
  with a loopback of its own), its own PID namespace: whatever the build
  starts (``sleep &``, ``setsid``, a daemon) is killed when the step ends;
  its own session, no capabilities, killed when hipport dies;
* an environment of hipport's making (``sandbox_env``): nothing of the
  user's but ``KEPT`` and ``PATH``, so no token or key reaches the build."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from hipport.doctor.system import System
from hipport.errors import HipportError

PROGRAM = "bwrap"
PACKAGE = "bubblewrap"
FLAG = "--no-sandbox"
# Where users keep their files, and where other programs keep theirs while
# they run: empty in the sandbox.
HIDDEN = ("/home", "/root", "/tmp", "/var/tmp", "/run", "/mnt", "/media", "/srv")
# Readable by their owner, and a build run by root is their owner.
HIDDEN_FILES = ("/etc/shadow", "/etc/gshadow")
# The user's variables the build gets (and PATH, and every LC_*): how text
# is read and shown, nothing that names a secret.
KEPT = ("LANG", "LANGUAGE", "TZ")


class NoSandbox(HipportError):
    """The build's sandbox cannot be made: nothing is built (exit 2)."""


@dataclass(frozen=True)
class Sandbox:
    """What a step may see: ``root`` read-only as ``/``, ``hidden`` folders
    empty, ``hidden_files`` unreadable, ``covered`` (empty folders of the
    root, where a mount point must be made) in memory, ``readable`` shown
    again read-only, ``writable`` read-write; every path where it is on
    this machine."""

    bwrap: str
    root: Path = Path("/")
    hidden: tuple[Path, ...] = ()
    hidden_files: tuple[Path, ...] = ()
    covered: tuple[Path, ...] = ()
    readable: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()

    def command(self, argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> list[str]:
        return bwrap_argv(self, argv, env, cwd)


def bwrap_argv(sandbox: Sandbox, argv: Sequence[str], env: Mapping[str, str],
               cwd: Path) -> list[str]:
    """The bwrap command that runs ``argv`` in ``cwd`` with exactly ``env``
    inside ``sandbox`` (bwrap applies its options in order: a later mount
    lies on an earlier one)."""
    command = [sandbox.bwrap, "--unshare-all", "--cap-drop", "ALL", "--die-with-parent",
               "--new-session", "--clearenv", "--ro-bind", str(sandbox.root), "/",
               "--dev", "/dev", "--proc", "/proc"]
    for folder in (*sandbox.hidden, *sandbox.covered):
        command += ["--tmpfs", str(folder)]
    for path in sandbox.hidden_files:
        command += ["--ro-bind", "/dev/null", str(path)]
    for path in sandbox.readable:
        command += ["--ro-bind", str(path), str(path)]
    for path in sandbox.writable:
        command += ["--bind", str(path), str(path)]
    for name, value in sorted(env.items()):
        command += ["--setenv", name, value]
    return command + ["--chdir", str(cwd), "--", *argv]


def find_bwrap(system: System, command: str = "hipport verify") -> str:
    """bwrap's path on PATH, else ``NoSandbox`` saying how to get it."""
    found = system.find(PROGRAM)
    if found is None:
        raise NoSandbox(
            f"{command} builds the project with its own CMake and Make code, in a sandbox made "
            f"with bubblewrap, and {PROGRAM} is not on PATH: install it (Debian: apt install "
            f"{PACKAGE}), or pass {FLAG} to run that code without a sandbox, with your rights")
    return found


def sandbox_for(bwrap: str, root: Path, env: Mapping[str, str], readable: Sequence[Path] = (),
                writable: Sequence[Path] = ()) -> Sandbox:
    """The sandbox of a step whose tools live in ``root`` (``/`` or a
    toolchain's chroot), for a user whose environment is ``env``: it looks
    at the root to know what is there to hide and where mount points can be
    made.  Raises ``NoSandbox`` for a ``writable`` folder the root has no
    place for."""
    private = [Path(p) for p in HIDDEN]
    private += [Path(env[name]) for name in ("HOME", "TMPDIR")
                if env.get(name, "").startswith("/")]
    # HOME=/ (a service's user) or HOME=/usr would hide the system itself
    hidden = _outermost([p for p in map(_real, private) if _in(root, p).is_dir()
                         and not Path("/usr").is_relative_to(p)])
    shown = [p for p in map(_real, readable) if _under(p, hidden)]
    places = [_real(p) for p in writable]
    covered = [c for c in (_mount_point(root, p, hidden) for p in places) if c is not None]
    files = [Path(p) for p in HIDDEN_FILES if _in(root, Path(p)).is_file()]
    return Sandbox(bwrap, root, tuple(hidden), tuple(files), tuple(dict.fromkeys(covered)),
                   tuple(_outermost(shown)), tuple(_outermost(places)))


def sandbox_env(user: Mapping[str, str], build: Mapping[str, str],
                home: Path | None = None, tmpdir: Path | None = None) -> dict[str, str]:
    """A step's whole environment: of the user's, only ``KEPT``, ``LC_*``
    and ``PATH``; then what hipport sets for the build (``build``: the
    platform, the ROCm root, hipcc's flags, the toolchain's PATH); then
    ``HOME`` and ``TMPDIR`` inside the scratch folder."""
    env = {k: v for k, v in user.items() if k in KEPT or k.startswith("LC_")}
    env["PATH"] = user.get("PATH", os.defpath)
    env |= build
    if home is not None:
        env["HOME"] = str(home)
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return env


def bwrap_error(output: str) -> str | None:
    """bwrap's own complaint (``bwrap: Creating new namespace failed: ...``)
    in what a step printed, when the sandbox could not be made."""
    return next((line.strip() for line in output.splitlines()
                 if line.startswith(f"{PROGRAM}: ")), None)


def _in(root: Path, path: Path) -> Path:
    return root / str(path).lstrip("/")


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _under(path: Path, folders: Sequence[Path]) -> bool:
    return any(path == f or path.is_relative_to(f) for f in folders)


def _outermost(paths: Sequence[Path]) -> list[Path]:
    unique = sorted(set(paths))
    return [p for p in unique if not any(q != p and p.is_relative_to(q) for q in unique)]


def _mount_point(root: Path, path: Path, hidden: Sequence[Path]) -> Path | None:
    """None when bwrap can make ``path``'s mount point (it is in the root,
    or under a hidden folder, which is in memory); else the empty folder of
    the root to put in memory so that it can."""
    if _under(path, hidden):
        return None
    known = path
    while not _in(root, known).is_dir():
        known = known.parent
    if known == path:
        return None
    try:
        empty = known != Path("/") and not any(_in(root, known).iterdir())
    except OSError:
        empty = False
    if not empty:
        raise NoSandbox(f"{path} cannot be shown to the build: the toolchain's root {root} has "
                        f"no {known / path.relative_to(known).parts[0]}; build under /tmp "
                        f"(--build-dir), or pass {FLAG}")
    return known
