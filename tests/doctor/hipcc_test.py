"""One chooser of hipcc for doctor and verify (issue 24 item 8, issue 26):
a named hipcc first, then the newest ROCm (hipport's toolchain, $ROCM_PATH,
/opt/rocm, the newest /opt/rocm-X.Y.Z), then hipcc on PATH; each must answer
``--version`` with a HIP version line.  Stand-in hipcc scripts in a
prepared file system show the order and the reasons."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hipport.doctor.hipcc import PLACES, choose_hipcc
from hipport.doctor.system import System
from tests.doctor.roots import fake_hipcc, isolated


@pytest.fixture
def machine(tmp_path) -> Path:
    """A file system with a hipcc in every place but $ROCM_PATH's."""
    fake_hipcc(tmp_path / "var" / "cache" / "hipport" / "bin", "6.4.43484-9999")
    fake_hipcc(tmp_path / "opt" / "rocm" / "bin", "6.2.41133-dd7f95766")
    fake_hipcc(tmp_path / "opt" / "rocm-6.3.1" / "bin", "6.3.42131-fa1d09cbd")
    fake_hipcc(tmp_path / "opt" / "rocm-6.10.0" / "bin", "6.10.2-0")
    fake_hipcc(tmp_path / "bin", "5.2.21153-0")
    return tmp_path


def test_the_order_is_one_list():
    assert [p.name for p in PLACES] == ["--hipcc", "HIPCC", "--root", "toolchain", "ROCM_PATH",
                                        "/opt/rocm", "/opt/rocm-X.Y.Z", "PATH"]


@pytest.mark.parametrize("remove, chosen, version", [
    pytest.param([], "toolchain", "6.4", id="toolchain-first"),
    pytest.param(["var/cache/hipport/bin/hipcc"], "/opt/rocm", "6.2", id="then-opt-rocm"),
    pytest.param(["var/cache/hipport/bin/hipcc", "opt/rocm/bin/hipcc"], "/opt/rocm-X.Y.Z",
                 "6.10", id="then-the-newest-versioned"),
    pytest.param(["var/cache/hipport/bin/hipcc", "opt/rocm/bin/hipcc",
                  "opt/rocm-6.10.0/bin/hipcc", "opt/rocm-6.3.1/bin/hipcc"], "PATH", "5.2",
                 id="then-path"),
])
def test_newest_rocm_first(machine, remove, chosen, version):
    for name in remove:
        (machine / name).unlink()
    choice = choose_hipcc(isolated(machine))
    assert choice.usable and choice.place is not None
    assert (choice.place.name, choice.hip_version) == (chosen, version)


def test_rocm_path_comes_after_the_toolchain(machine):
    fake_hipcc(machine / "rocm" / "bin", "6.1.40091-a8dbc0c19")
    env = {"ROCM_PATH": str(machine / "rocm")}
    assert choose_hipcc(isolated(machine, env)).hip_version == "6.4"
    (machine / "var" / "cache" / "hipport" / "bin" / "hipcc").unlink()
    choice = choose_hipcc(isolated(machine, env))
    assert choice.hip_version == "6.1" and choice.reason == "$ROCM_PATH/bin/hipcc"


def test_the_toolchain_cache_variable(machine):
    other = fake_hipcc(machine / "elsewhere" / "bin", "6.5.1-0")
    choice = choose_hipcc(isolated(machine, {"HIPPORT_TOOLCHAIN_CACHE": str(other.parent.parent)}))
    assert choice.path == str(other) and choice.hip_version == "6.5"
    assert choice.reason.startswith("hipport's ROCm toolchain (scripts/bootstrap.sh --toolchain)")
    assert choice.sysroot == machine / "elsewhere" / "rocm-sid"


def test_a_named_hipcc_wins_over_all(machine):
    named = fake_hipcc(machine / "mine", "5.7.31921-d1770ee1b")
    choice = choose_hipcc(isolated(machine, {"HIPCC": str(named)}))
    assert choice.path == str(named) and choice.reason == "named by the environment variable HIPCC"
    choice = choose_hipcc(isolated(machine, {"HIPCC": str(machine / "nope")}))
    assert not choice.usable and choice.path is None
    assert choice.tried == f"HIPCC: {machine / 'nope'} (not found)"


def test_a_hipcc_that_does_not_run_is_passed_over_and_named(machine):
    fake_hipcc(machine / "var" / "cache" / "hipport" / "bin", body="echo broken >&2; exit 3")
    choice = choose_hipcc(isolated(machine))
    assert choice.place is not None and choice.place.name == "/opt/rocm"
    toolchain = machine / "var" / "cache" / "hipport" / "bin" / "hipcc"
    assert choice.reason == (f"/opt/rocm/bin/hipcc; passed over toolchain: {toolchain} "
                             "(exit status 3: broken)")


@pytest.mark.parametrize("body", [
    pytest.param("/usr/bin/head -c 300 /dev/urandom", id="random-bytes"),
    pytest.param("echo 'clang version 17.0.6'", id="a-clang-not-a-hipcc"),
    pytest.param("printf 'HIP version'", id="no-number"),
    pytest.param("true", id="nothing"),
])
def test_a_version_that_names_no_hip_is_not_a_hipcc(machine, body):
    """Issue 24: verify took any --version answer, random bytes too."""
    fake_hipcc(machine / "var" / "cache" / "hipport" / "bin", body=body)
    choice = choose_hipcc(isolated(machine))
    assert choice.place is not None and choice.place.name == "/opt/rocm"
    assert "its --version says no 'HIP version: X.Y'" in choice.reason


def test_a_relative_hipcc_is_made_absolute_once(machine, monkeypatch):
    """Issue 24: ``--hipcc bin/hipcc`` passed the version probe, then every
    unit failed with 'cannot run bin/hipcc' (units compile in their folder)."""
    monkeypatch.chdir(machine)
    choice = choose_hipcc(isolated(machine), ("--hipcc", "bin/hipcc"))
    assert choice.path == str(machine / "bin" / "hipcc") and choice.hip_version == "5.2"
    choice = choose_hipcc(isolated(machine, {"HIPCC": "opt/rocm/bin/hipcc"}))
    assert choice.path == str(machine / "opt" / "rocm" / "bin" / "hipcc")
    relative_path = isolated(machine, {"PATH": "bin"})
    choice = choose_hipcc(System(relative_path.env, fs_root=Path("/nonexistent")))
    assert choice.path == str(machine / "bin" / "hipcc")  # a relative PATH entry too


def test_a_hipcc_is_asked_once(machine):
    calls: list[list[str]] = []
    system = isolated(machine, {"ROCM_PATH": str(machine / "opt" / "rocm")})

    def run(argv, env, timeout):
        calls.append(list(argv))
        return system_run(argv, env, timeout)

    system_run = system.run
    fake_hipcc(machine / "var" / "cache" / "hipport" / "bin", body="exit 1")
    choice = choose_hipcc(replace(system, run=run))
    assert choice.place is not None and choice.place.name == "ROCM_PATH"
    (machine / "opt" / "rocm" / "bin" / "hipcc").write_text("#!/bin/sh\nexit 1\n")
    choice = choose_hipcc(replace(system, run=run))
    assert choice.place is not None and choice.place.name == "/opt/rocm-X.Y.Z"
    assert [c[0] for c in calls].count(str(machine / "opt" / "rocm" / "bin" / "hipcc")) == 2


def test_the_toolchains_rocm_72_comes_before_its_64(machine):
    """Issue 33: the toolchain's ROCm 7.2 folder is looked at first, with its
    own chroot and runner; the 6.4 one stays selectable by name."""
    cache = machine / "var" / "cache" / "hipport"
    new = fake_hipcc(cache / "rocm-7.2" / "bin", "7.2.53211-9999")
    (cache / "rocm-7.2" / "bin" / "rocm-sid-run").write_text("#!/bin/sh\n")
    choice = choose_hipcc(isolated(machine))
    assert (choice.path, choice.hip_version) == (str(new), "7.2")
    assert choice.sysroot == cache / "rocm-7.2" / "root"
    assert choice.runner == (str(cache / "rocm-7.2" / "bin" / "rocm-sid-run"),)
    old = cache / "bin" / "hipcc"
    choice = choose_hipcc(isolated(machine), ("--hipcc", str(old)))
    assert (choice.path, choice.hip_version, choice.sysroot) == (str(old), "6.4",
                                                                cache / "rocm-sid")
    new.unlink()
    assert choose_hipcc(isolated(machine)).path == str(old)


def test_a_wrapper_folder_outside_the_cache_runs_in_the_chroot_its_root_names(machine):
    """Issue 33 §6: wrappers written elsewhere (``setup-rocm-modern.sh
    --write-wrappers DIR``) were taken for a host ROCm: sysroot "/", no
    runner, so doctor looked for Clang and CMake on the host (CMake 3.25)."""
    chroot = machine / "chroots" / "rocm-7.2"
    chroot.mkdir(parents=True)
    wrapper = fake_hipcc(machine / "wrappers" / "bin", "7.2.53211-9999")
    (wrapper.parent / "rocm-sid-run").write_text("#!/bin/sh\n")
    (wrapper.parent / ".root").write_text(f"{chroot}\n")
    choice = choose_hipcc(isolated(machine, {"HIPCC": str(wrapper)}))
    assert (choice.path, choice.hip_version, choice.sysroot) == (str(wrapper), "7.2", chroot)
    assert choice.runner == (str(wrapper.parent / "rocm-sid-run"),)
    # a ROCm's own bin folder has no .root: its tools run on this machine
    host = fake_hipcc(machine / "opt" / "rocm-7.2.0" / "bin", "7.2.53211-0")
    choice = choose_hipcc(isolated(machine, {"HIPCC": str(host)}))
    assert (choice.sysroot, choice.runner) == (Path("/"), ())


def test_the_caches_folders_run_in_the_chroot_their_root_names(machine):
    cache = machine / "var" / "cache" / "hipport"
    moved = machine / "srv" / "rocm-sid"
    moved.mkdir(parents=True)
    (cache / "bin" / ".root").write_text(f"{moved}\n")
    assert choose_hipcc(isolated(machine)).sysroot == moved
