import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.doctor.compiler import probe_compilers
from hipport.doctor.model import Status
from hipport.doctor.rocm import find_rocm
from hipport.doctor.system import System
from hipport.verify import find_compiler
from tests.ci import missing
from tests.doctor.roots import (
    WITHOUT_TOOLCHAIN,
    debian_hip_5_2,
    fake_hipcc,
    isolated,
    suite_root,
    this_machine,
)
from tests.toolchain import require_hipcc, require_nvcc


def _checks(system, root=None):
    found, _ = find_rocm(system, root)
    compilers, checks = probe_compilers(system, found)
    return compilers, {c.id: c for c in checks}


def _tool(directory: Path, name: str, script: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)


def test_this_machine_picks_nvidia_because_of_nvcc():
    """Debian 12: hipcc 5.2 runs clang++-15, so hipvars.pm finds no clang++;
    nvcc in /usr/local/cuda makes it choose NVIDIA when HIP_PLATFORM is unset."""
    require_hipcc()
    nvcc = require_nvcc()
    compilers, checks = _checks(debian_hip_5_2())
    platform = checks["hip-platform"]
    assert compilers.platform == "nvidia" and platform.status is Status.WARN
    assert "nvcc" in platform.detail and "no clang++" in platform.detail
    assert Path(nvcc).name == "nvcc"
    assert platform.advice.startswith("export HIP_PLATFORM=amd")
    assert checks["hipcc"].status is Status.OK and "HIP 5.2" in checks["hipcc"].detail
    clang = checks["hip-clang"]
    assert clang.status is Status.OK and "clang++-15" in clang.detail
    assert compilers.clang_version is not None and compilers.clang_version[0] == 15
    assert "gfx942" in clang.detail  # clang 15 cannot build for MI300


def test_hip_platform_amd_is_respected():
    require_hipcc()
    compilers, checks = _checks(debian_hip_5_2(HIP_PLATFORM="amd"))
    assert compilers.platform == "amd"
    assert checks["hip-platform"].status is Status.OK
    assert "HIP_PLATFORM=amd" in checks["hip-platform"].detail


def test_without_nvcc_hipcc_defaults_to_amd():
    require_hipcc()
    env = {"PATH": "/usr/bin:/bin", "CUDA_PATH": "/nonexistent", **WITHOUT_TOOLCHAIN}
    compilers, checks = _checks(System(env=env))
    assert compilers.platform == "amd"
    assert "neither clang++ nor nvcc" in checks["hip-platform"].detail


def test_debian_12_root_with_its_clang():
    require_hipcc()
    system = this_machine(HIP_CLANG_PATH="/usr/bin", HIP_PLATFORM="amd")
    compilers, checks = _checks(system, suite_root("bookworm"))
    assert compilers.hipcc == str(suite_root("bookworm") / "bin" / "hipcc")
    assert checks["hip-clang"].status is Status.OK
    assert compilers.clang == "/usr/bin/clang++-15"


def test_debian_13_hipcc_wants_clang_17():
    system = this_machine(HIP_CLANG_PATH="/usr/bin", HIP_PLATFORM="amd")
    compilers, checks = _checks(system, suite_root("trixie"))
    clang = checks["hip-clang"]
    if Path("/usr/bin/clang++-17").exists():
        pytest.skip("clang 17 is installed here")
    assert clang.status is Status.MISSING and clang.fails
    assert "clang++-17" in clang.detail and "apt install clang-17" in clang.advice


def test_a_hipcc_that_cannot_run_is_reported():
    # sid's hipcc is a C++ program built for a newer libstdc++ than Debian
    # 12's: it fails to start here, and doctor must say so (the root was
    # named: no other hipcc stands in for its own).
    compilers, checks = _checks(this_machine(), suite_root("sid"))
    assert compilers.hipcc == str(suite_root("sid") / "bin" / "hipcc")
    assert checks["hipcc"].status in (Status.OK, Status.WARN)
    if checks["hipcc"].status is Status.WARN:
        assert "but it does not run: exit status 1" in checks["hipcc"].detail
        assert "chosen: the hipcc of the ROCm root named with --root" in checks["hipcc"].detail


def test_slow_tools_time_out(tmp_path):
    bin_dir = tmp_path / "bin"
    _tool(bin_dir, "hipcc", 'echo "HIP version: 6.4.43484-9999"')
    _tool(bin_dir, "hipconfig", "sleep 30")
    system = System(env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, fs_root=tmp_path, timeout=0.5)
    start = time.monotonic()
    compilers, checks = _checks(system)
    assert time.monotonic() - start < 5
    assert "did not answer within 0.5 s" in checks["hipcc"].detail
    assert checks["hip-platform"].status is Status.WARN


def test_missing_hipcc(tmp_path):
    compilers, checks = _checks(System(env={"PATH": str(tmp_path)}, fs_root=tmp_path))
    assert compilers.hipcc is None and checks["hipcc"].fails


def test_cmake_3_25_misses_the_multiarch_hip_lang():
    """docs/build-files.md, Debian 12 gap 1, diagnosed on the real layout."""
    system = this_machine(HIP_PLATFORM="amd")
    if system.find("cmake") is None:
        missing("no cmake")
    compilers, checks = _checks(system, suite_root("bookworm"))
    if compilers.cmake_version is not None and compilers.cmake_version >= (3, 27):
        pytest.skip("this CMake finds multiarch packages")
    check = checks["cmake-hip-lang"]
    assert check.status is Status.WARN
    assert "lib/x86_64-linux-gnu/cmake/hip-lang" in check.detail
    assert "CMAKE_HIP_COMPILER_ROCM_ROOT" in check.advice


@pytest.mark.parametrize(("version", "status"), [
    ("3.20.6", Status.TOO_OLD),
    ("3.28.3", Status.OK),
])
def test_cmake_versions(tmp_path, version, status):
    bin_dir = tmp_path / "bin"
    _tool(bin_dir, "cmake", f'echo "cmake version {version}"')
    system = this_machine(PATH=f"{bin_dir}:{os.environ['PATH']}", HIP_PLATFORM="amd")
    compilers, checks = _checks(system, suite_root("trixie"))
    assert checks["cmake"].status is status
    if status is Status.OK:
        # 3.27+ finds the multiarch package; hip-lang is fine on that side.
        assert "finds" in checks["cmake-hip-lang"].detail


def test_cmake_without_a_plain_clang_on_debian(tmp_path):
    """docs/build-files.md, Debian 12 gap 2: CMake's HIP language wants a
    clang++, Debian has clang++-15 only."""
    require_hipcc()
    if this_machine().find("clang++"):
        pytest.skip("a clang++ is installed")
    _tool(tmp_path, "cmake", 'echo "cmake version 3.28.3"')
    _, checks = _checks(debian_hip_5_2(PATH=f"{tmp_path}:{os.environ['PATH']}",
                                       HIP_PLATFORM="amd"))
    check = checks["cmake-hip-lang"]
    assert check.status is Status.WARN
    assert check.advice == "cmake -DCMAKE_HIP_COMPILER=/usr/lib/llvm-15/bin/clang++"


@pytest.fixture
def machine(tmp_path) -> Path:
    """A file system with a hipcc in each of the usual places."""
    fake_hipcc(tmp_path / "var" / "cache" / "hipport" / "bin", "6.4.43484-9999")
    fake_hipcc(tmp_path / "opt" / "rocm" / "bin", "6.2.41133-dd7f95766")
    fake_hipcc(tmp_path / "opt" / "rocm-6.3.1" / "bin", "6.3.42131-fa1d09cbd")
    fake_hipcc(tmp_path / "bin", "5.2.21153-0")
    return tmp_path


def test_doctor_and_verify_choose_the_same(machine):
    """Issue 24: doctor reported /usr/bin/hipcc (its ROCm root's), verify
    used the first hipcc on PATH."""
    (machine / "usr" / "include" / "hip").mkdir(parents=True)
    (machine / "usr" / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 5\n#define HIP_VERSION_MINOR 2\n")
    fake_hipcc(machine / "usr" / "bin", "5.2.21153-0")
    fake_hipcc(machine / "first" / "bin", "6.0.32830-d62f6a171")
    for remove in ("var/cache/hipport/bin/hipcc", "opt/rocm/bin/hipcc",
                   "opt/rocm-6.3.1/bin/hipcc", None):
        system = isolated(machine, {"PATH": f"{machine / 'first' / 'bin'}:{machine / 'bin'}"})
        compilers, _ = probe_compilers(system, find_rocm(system)[0])
        assert compilers.hipcc == find_compiler(system).path, remove
        if remove:
            (machine / remove).unlink()
    assert compilers.hipcc == str(machine / "first" / "bin" / "hipcc")


def test_both_commands_say_which_and_why(tmp_path, monkeypatch):
    """On the real file system: a stand-in toolchain (hipcc, hipconfig, its
    chroot's clang and ROCm headers) is chosen by both commands, and both
    print it with the reason."""
    cache = tmp_path / "cache"
    hipcc = fake_hipcc(cache / "bin", "6.4.43484-9999")
    hipconfig = cache / "bin" / "hipconfig"
    hipconfig.write_text('#!/bin/sh\ncase "$1" in --platform) echo amd ;; --version) '
                         'echo 6.4.43484-9999 ;; *) echo /usr/lib/llvm-21/bin ;; esac\n')
    hipconfig.chmod(0o755)
    clang = fake_hipcc(cache / "rocm-sid" / "usr" / "lib" / "llvm-21" / "bin",
                       body='echo "Debian clang version 21.1.8"').rename(
        cache / "rocm-sid" / "usr" / "lib" / "llvm-21" / "bin" / "clang++")
    (cache / "rocm-sid" / "usr" / "include" / "hip").mkdir(parents=True)
    (cache / "rocm-sid" / "usr" / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 4\n")
    other = fake_hipcc(tmp_path / "bin", "5.2.21153-0")
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(cache))
    monkeypatch.setenv("PATH", f"{other.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("ROCM_PATH", raising=False)
    monkeypatch.delenv("HIPCC", raising=False)
    doctor = CliRunner().invoke(cli, ["doctor", "-f", "json"], catch_exceptions=False)
    checks = {c["id"]: c for c in json.loads(doctor.stdout)["checks"]}
    reason = "hipport's ROCm toolchain (scripts/bootstrap.sh --toolchain), looked at first"
    assert checks["hipcc"]["data"]["path"] == str(hipcc)
    assert checks["hipcc"]["data"]["reason"] == reason
    assert checks["hip-clang"]["data"]["path"] == str(clang)
    assert checks["rocm-root"]["data"]["path"] == str(cache / "rocm-sid" / "usr")
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "a.hip").write_text("ok\n")
    verify = CliRunner().invoke(cli, ["verify", str(tmp_path / "t")], catch_exceptions=False)
    assert f"hipcc: {hipcc}; chosen: {reason}\n" in verify.stderr
    data = json.loads(CliRunner().invoke(cli, ["verify", str(tmp_path / "t"), "-f", "json"],
                                         catch_exceptions=False).stdout)
    assert data["compiler"]["path"] == str(hipcc)
    assert (data["compiler"]["chosen_by"], data["compiler"]["reason"]) == ("toolchain", reason)
