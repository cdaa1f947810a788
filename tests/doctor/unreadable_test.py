"""A ROCm folder this user may not look into (mode 0000) is a line of the
report, never ``internal error: PermissionError`` (issue 24 item 9).  Root
reads any folder (CAP_DAC_OVERRIDE), so as root hipport runs in a child
process without that capability."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ci import missing
from tests.conftest import REPO
from tests.doctor.roots import fake_hipcc

pytestmark = pytest.mark.slow  # a hipport process per run

_NO_OVERRIDE = "-dac_override,-dac_read_search"


def unprivileged(argv: list[str], env: dict[str, str],
                 cwd: Path) -> subprocess.CompletedProcess[str]:
    """``argv`` as a user whom file modes bind (root without CAP_DAC_OVERRIDE)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            missing("setpriv (util-linux) is needed to drop CAP_DAC_OVERRIDE")
        prefix = [setpriv, "--bounding-set", _NO_OVERRIDE, "--inh-caps", _NO_OVERRIDE]
    return subprocess.run([*prefix, *argv], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture
def locked(tmp_path):
    """A ROCm folder with a hipcc and HIP's version header, mode 0000."""
    rocm = tmp_path / "rocm"
    fake_hipcc(rocm / "bin", "6.4.43484-9999")
    (rocm / "include" / "hip").mkdir(parents=True)
    (rocm / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 4\n")
    rocm.chmod(0)
    probe = unprivileged(["ls", str(rocm)], dict(os.environ), tmp_path)
    if probe.returncode == 0:
        rocm.chmod(0o755)
        missing("this user reads folders of mode 0000")
    yield rocm
    rocm.chmod(0o755)


def hipport(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    values = {**os.environ, "HIPPORT_TOOLCHAIN_CACHE": str(tmp_path / "no-toolchain"),
              "PYTHONPATH": str(REPO), **env}  # this checkout's hipport
    if "HIPCC" not in env:
        values.pop("HIPCC", None)
    return unprivileged([sys.executable, "-m", "hipport", *args], values, tmp_path)


def test_doctor_reports_an_unreadable_rocm_path(tmp_path, locked):
    result = hipport(tmp_path, "doctor", ROCM_PATH=str(locked))
    assert "internal error" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    line = next(line for line in result.stdout.splitlines() if "ROCM_PATH" in line)
    assert f"ROCM_PATH={locked}: cannot be read (Permission denied" in line, result.stdout


def test_doctor_with_an_unreadable_root(tmp_path, locked):
    result = hipport(tmp_path, "doctor", "--root", str(locked))
    assert "internal error" not in result.stderr, result.stderr
    assert result.returncode == 2 and f"'{locked}' is not readable" in result.stderr


def test_verify_passes_over_an_unreadable_rocm_path(tmp_path, locked):
    on_path = fake_hipcc(tmp_path / "bin", "5.2.21153-0")
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.hip").write_text("int main() {}\n")
    result = hipport(tmp_path, "verify", "t", "-f", "json", ROCM_PATH=str(locked),
                     PATH=f"{on_path.parent}:{os.environ['PATH']}")
    assert "internal error" not in result.stderr, result.stderr
    compiler = json.loads(result.stdout)["compiler"]
    assert compiler["path"] == str(on_path)
    assert compiler["reason"] == (f"the first hipcc on PATH; passed over ROCM_PATH: "
                                  f"{locked / 'bin' / 'hipcc'} (cannot be looked at: "
                                  "Permission denied)")


@pytest.mark.parametrize("mode", [0o000, 0o444], ids=["locked", "listed-only"])
def test_verify_refuses_a_tree_it_cannot_read_whole(tmp_path, mode):
    """A folder of the tree that cannot be looked into was passed over in
    silence (mode 0000), or ended verify with an internal error (0444)."""
    on_path = fake_hipcc(tmp_path / "bin", "5.2.21153-0")
    for name in ("t/a.hip", "t/sub/b.hip"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("int main() {}\n")
    (tmp_path / "t" / "sub").chmod(mode)
    try:
        result = hipport(tmp_path, "verify", "t", HIPCC=str(on_path))
    finally:
        (tmp_path / "t" / "sub").chmod(0o755)
    assert "internal error" not in result.stderr, result.stderr
    assert result.returncode == 2
    assert result.stderr.startswith("hipport: error: t/sub")
    assert "cannot be read (Permission denied), so the translation units there cannot be " \
           "verified" in result.stderr
