"""The outside world as doctor sees it, passed in explicitly: the
environment, a PATH search, a command runner with a timeout and the
filesystem root (``/``, or a prepared tree in tests).  Every probe takes a
``System``; nothing reads os.environ or runs a command behind its back."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Protocol, Sequence

from hipport import children

TIMEOUT = 5.0  # seconds, for every external command
NO_ANSWER = "did not answer within"  # in Output.error: the command ran past its time limit


@dataclass(frozen=True)
class Output:
    """What a command printed; ``error`` is set when it did not run to the end
    (not found, not executable, timed out) and then nothing else is."""

    returncode: int = -1
    stdout: str = ""
    stderr: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and self.returncode == 0

    @property
    def text(self) -> str:
        return self.stdout + self.stderr

    def why(self) -> str:
        if self.error:
            return self.error
        last = (self.stderr.strip() or self.stdout.strip()).splitlines()[-1:] or [""]
        return f"exit status {self.returncode}" + (f": {last[0][:240]}" if last[0] else "")


class Runner(Protocol):
    """Runs ``argv`` with ``env`` and a timeout; never raises."""

    def __call__(self, argv: Sequence[str], env: Mapping[str, str], timeout: float) -> Output:
        ...


def run_command(argv: Sequence[str], env: Mapping[str, str], timeout: float) -> Output:
    """``argv`` in its own session; past ``timeout`` it is killed with every
    process it started (a script's ``sleep``, hipcc's clang)."""
    try:
        proc = children.start(argv, env)
    except FileNotFoundError:
        return Output(error=f"{argv[0]} not found")
    except OSError as exc:
        return Output(error=f"{argv[0]}: {exc.strerror or exc}")
    status, out, err = children.finish(proc, timeout)
    if status is None:
        return Output(error=f"{Path(argv[0]).name} {NO_ANSWER} {timeout:g} s")
    return Output(status, out, err)


def is_file(path: Path) -> bool:
    """``path.is_file()``, False when it cannot be looked at (a folder on the
    way this user may not search): for probes where such a file is as good as
    absent.  Where it matters, the caller catches OSError and says so."""
    try:
        return path.is_file()
    except OSError:
        return False


def exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def runnable(path: Path) -> bool:
    return is_file(path) and os.access(path, os.X_OK)


Which = Callable[[str, Mapping[str, str]], "str | None"]


def which_in_path(name: str, env: Mapping[str, str]) -> str | None:
    return shutil.which(name, path=env.get("PATH", os.defpath))


@dataclass(frozen=True)
class System:
    env: Mapping[str, str]
    which: Which = which_in_path
    run: Runner = run_command
    fs_root: Path = Path("/")  # where /opt, /sys, /dev and /var/lib/dpkg are looked up
    timeout: float = TIMEOUT
    python: str = field(default="")  # interpreter that probes frameworks ("" = the running one)

    @classmethod
    def current(cls) -> System:
        return cls(env=dict(os.environ))

    def path(self, absolute: str) -> Path:
        """``/sys/class/kfd`` under ``fs_root``."""
        return self.fs_root / absolute.lstrip("/")

    def debian_release(self) -> int | None:
        """The machine's Debian major release (12, 13), from /etc/os-release;
        None elsewhere and on unstable (which has no VERSION_ID)."""
        try:
            text = self.path("/etc/os-release").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        fields = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
        version = fields.get("VERSION_ID", "").strip('"')
        return int(version) if fields.get("ID") == "debian" and version.isdigit() else None

    def find(self, name: str) -> str | None:
        return self.which(name, self.env)

    def execute(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> Output:
        return self.run(argv, self.env if env is None else env, self.timeout)


def run_parallel(system: System, commands: Mapping[str, tuple[Sequence[str], Mapping[str, str]]]
                 ) -> dict[str, Output]:
    """Several commands at once (each still under the timeout): doctor's
    wall time is the slowest command, not their sum."""
    from concurrent.futures import ThreadPoolExecutor

    if not commands:
        return {}
    with ThreadPoolExecutor(max_workers=min(8, len(commands))) as pool:
        futures = {key: pool.submit(system.execute, argv, env)
                   for key, (argv, env) in commands.items()}
        return {key: future.result() for key, future in futures.items()}
