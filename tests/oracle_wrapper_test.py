"""The ROCm chroot's wrapper (``<cache>/bin/rocm-sid-run``, written by
scripts/setup-rocm-modern.sh) behaves like the tool it runs: same cwd, same
argv, files at the same absolute paths, exit status and output unchanged,
and several calls at once.  Each test runs the installed wrapper and this
checkout's (rendered into a temporary folder)."""
from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.toolchain import REPO_ROOT, HipOracle, rendered_chroot_oracle, require_hip_oracle

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["installed", "rendered"])
def chroot(request, tmp_path_factory) -> HipOracle:
    if request.param == "installed":
        return require_hip_oracle("rocm-6.4")
    return rendered_chroot_oracle(tmp_path_factory.mktemp("wrappers") / "bin")


def run(oracle: HipOracle, *argv: str, cwd: Path, stdin: str | None = None):
    return subprocess.run(oracle.command(*argv), cwd=cwd, env=oracle.environ(), input=stdin,
                          capture_output=True, text=True, timeout=120, check=False)


def test_exit_status_and_streams_pass_through(chroot, tmp_path):
    proc = run(chroot, "sh", "-c", 'read x; echo "out $x"; echo err >&2; exit 7',
               cwd=tmp_path, stdin="in\n")
    assert (proc.returncode, proc.stdout, proc.stderr) == (7, "out in\n", "err\n")


def test_missing_command_is_127(chroot, tmp_path):
    assert run(chroot, "no-such-tool-hipport", cwd=tmp_path).returncode == 127


def test_same_cwd_and_paths_both_ways(chroot, tmp_path):
    (tmp_path / "in.txt").write_text("host\n")
    proc = run(chroot, "sh", "-c", 'pwd; cat "$1"; echo chroot > out.txt', "sh",
               str(tmp_path / "in.txt"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{tmp_path.resolve()}\nhost\n"
    assert (tmp_path / "out.txt").read_text() == "chroot\n"


def test_runs_the_chroot_system_not_the_host(chroot, tmp_path):
    proc = run(chroot, "sh", "-c", '. /etc/os-release; echo "$PRETTY_NAME"', cwd=tmp_path)
    assert proc.stdout.strip().endswith("/sid"), proc.stdout  # "Debian GNU/Linux forky/sid"


def test_repository_is_visible_wherever_it_is_cloned(chroot, tmp_path):
    proc = run(chroot, "test", "-f", str(REPO_ROOT / "pyproject.toml"), cwd=tmp_path)
    assert proc.returncode == 0


def test_never_shadows_the_chroot_own_directories(chroot):
    proc = run(chroot, "true", cwd=Path("/usr/lib"))
    assert proc.returncode == 125
    assert "the chroot has its own /usr/lib" in proc.stderr


def test_concurrent_calls(chroot, tmp_path):
    def one(i: int) -> tuple[int, str]:
        proc = run(chroot, "sh", "-c", f"echo {i} > f{i}; cat f{i}", cwd=tmp_path)
        return proc.returncode, proc.stdout

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, range(16)))
    assert results == [(0, f"{i}\n") for i in range(16)]
