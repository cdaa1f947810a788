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


# Tests of Debian 12's own HIP 5.2 (in /usr) say so: doctor and verify look
# at hipport's ROCm 6.4 toolchain first, this keeps it out of their sight.
WITHOUT_TOOLCHAIN = {"HIPPORT_TOOLCHAIN_CACHE": "/nonexistent/hipport-toolchain"}


def debian_hip_5_2(**overrides: str) -> System:
    """This machine as Debian 12 alone has it: HIP 5.2, the toolchain hidden."""
    return this_machine(**{**WITHOUT_TOOLCHAIN, **overrides})


def fake_hipcc(folder: Path, version: str = "6.4.43484-9999", body: str = "") -> Path:
    """``folder/hipcc`` answering --version as hipcc of HIP ``version`` does."""
    folder.mkdir(parents=True, exist_ok=True)
    hipcc = folder / "hipcc"
    answer = body or f'echo "HIP version: {version}"; echo "clang version 21.1.8"'
    hipcc.write_text(f"#!/bin/sh\n{answer}\n")
    hipcc.chmod(0o755)
    return hipcc
