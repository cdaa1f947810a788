"""The real ROCm layouts the doctor tests run against.

``scripts/fetch-doctor-fixtures.sh`` (called by setup-toolchain.sh) unpacks
Debian's ROCm -dev packages of each suite into .toolchain/doctor-roots/<suite>/
with a dpkg status file beside them; the KFD trees are checked in under data/.
A missing root skips the test, and fails it when CI=true."""
from __future__ import annotations

import os
from pathlib import Path

from hipport.doctor.system import System
from tests.ci import missing
from tests.toolchain import TOOLCHAIN_DIR

ROOTS = TOOLCHAIN_DIR / "doctor-roots"
DATA = Path(__file__).resolve().parent / "data"
SUITES = ("bookworm", "trixie", "sid")


def suite_root(suite: str) -> Path:
    """<suite>/usr: the ROCm root of a Debian layout."""
    root = ROOTS / suite / "usr"
    if not (root / "include" / "hip" / "hip_version.h").is_file():
        missing(f"{root} missing; run scripts/fetch-doctor-fixtures.sh")
    return root


def kfd_root(name: str) -> Path:
    return DATA / "kfd" / name


def isolated(tmp_path: Path, env: dict[str, str] | None = None, **kwargs: object) -> System:
    """A System whose /opt, /usr, /sys and /dev are under ``tmp_path`` (empty
    unless the test puts something there) and whose PATH is only what the
    test gives: nothing of this machine leaks in."""
    values = {"PATH": str(tmp_path / "bin")}
    values.update(env or {})
    return System(env=values, fs_root=tmp_path, **kwargs)  # type: ignore[arg-type]


def this_machine(**overrides: str) -> System:
    env = dict(os.environ)
    env.pop("HIP_PLATFORM", None)  # .toolchain/env sets it; doctor must see the default
    env.update(overrides)
    return System(env=env)
