"""The ROCm chroots' wrappers (``<cache>/bin/rocm-sid-run`` for 6.4,
``<cache>/rocm-7.2/bin/rocm-sid-run`` for 7.2, written by
scripts/setup-rocm-modern.sh) behave like the tool they run: same cwd, same
argv, files at the same absolute paths, exit status and output unchanged,
and several calls at once.  Each test runs the installed wrappers of both
chroots and this checkout's (rendered into a temporary folder)."""
from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.toolchain import (
    CHROOT_ORACLES,
    REPO_ROOT,
    HipOracle,
    rendered_chroot_oracle,
    require_hip_oracle,
    toolchain_cache,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=[(which, name) for name in CHROOT_ORACLES
                                        for which in ("installed", "rendered")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def chroot(request, tmp_path_factory) -> HipOracle:
    which, name = request.param
    if which == "installed":
        return require_hip_oracle(name)
    return rendered_chroot_oracle(tmp_path_factory.mktemp("wrappers") / "bin", name)


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


@pytest.mark.parametrize("name", CHROOT_ORACLES)
def test_each_wrapper_folder_names_its_own_chroot(name, tmp_path):
    """Issue 33: the 7.2 wrappers live in ``<cache>/rocm-7.2/bin`` and run
    the 7.2 chroot; each folder's ``.root`` names its chroot (verify's
    sandbox mounts it as ``/``), installed and rendered alike."""
    oracle = require_hip_oracle(name)
    folder, root = CHROOT_ORACLES[name]
    cache = toolchain_cache()
    assert oracle.hipcc == str(cache / folder / "hipcc") and oracle.sysroot == cache / root
    assert (cache / folder / ".root").read_text() == f"{cache / root}\n"
    rendered = rendered_chroot_oracle(tmp_path / "bin", name)
    assert (tmp_path / "bin" / ".root").read_text() == f"{cache / root}\n"
    proc = run(rendered, "hipconfig", "--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith(name.removeprefix("rocm-") + "."), \
        proc.stdout + proc.stderr


def test_experimental_is_in_the_72_chroot_only():
    """The 7.2 chroot's apt takes ROCm from experimental; the host's apt
    sources never name it (the setup adds it inside the chroot only)."""
    root = require_hip_oracle("rocm-7.2").sysroot
    sources = root / "etc" / "apt" / "sources.list.d" / "hipport-experimental.list"
    assert " experimental main" in sources.read_text()
    host = [p for p in Path("/etc/apt").rglob("*")
            if p.is_file() and p.suffix in (".list", ".sources")]
    assert not [p for p in host if "experimental" in p.read_text(errors="replace")]
    stamp = (root / ".hipport-stamp").read_text()
    assert "target=experimental" in stamp.splitlines()[0]
    assert "installed libhipfftw0=7.2" in stamp and "unpacked librocblas-dev=7.2" in stamp
