"""The build's sandbox and scratch folder (issue 31), without real tools:
the bwrap command hipport builds (a pure function), the environment the
build gets, the refusal where bwrap is missing, the copy of a tree (links
kept as links, loops skipped), a relative or shared --build-dir, and a
stopped run that leaves nothing behind.  tests/verify/sandbox_build_test.py
builds hostile projects in the real sandbox."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hipport.locking import writing_under
from hipport.verify.sandbox import Sandbox, bwrap_argv, sandbox_env, sandbox_for
from tests.leftovers import survivors
from tests.verify.build_cli_test import LISTS, calls, executable, toolchain, verify_build
from tests.verify.cli_test import run, tree

__all__ = ["toolchain"]  # the fixture, used by name


def test_the_bwrap_command():
    sandbox = Sandbox("/usr/bin/bwrap", Path("/chroot"), (Path("/home"), Path("/tmp")),
                      (Path("/etc/shadow"),), (Path("/work"),), (Path("/home/me/rocm"),),
                      (Path("/tmp/hipport-build-1"),))
    argv = bwrap_argv(sandbox, ["/usr/bin/make", "-C", "x"], {"PATH": "/usr/bin", "A": "1"},
                      Path("/tmp/hipport-build-1/x"))
    assert argv == [
        "/usr/bin/bwrap", "--unshare-all", "--cap-drop", "ALL", "--die-with-parent",
        "--new-session", "--clearenv", "--ro-bind", "/chroot", "/", "--dev", "/dev",
        "--proc", "/proc", "--tmpfs", "/home", "--tmpfs", "/tmp", "--tmpfs", "/work",
        "--ro-bind", "/dev/null", "/etc/shadow",
        "--ro-bind", "/home/me/rocm", "/home/me/rocm",
        "--bind", "/tmp/hipport-build-1", "/tmp/hipport-build-1",
        "--setenv", "A", "1", "--setenv", "PATH", "/usr/bin",
        "--chdir", "/tmp/hipport-build-1/x", "--", "/usr/bin/make", "-C", "x"]


def test_the_build_gets_no_secret_of_the_users_environment():
    user = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C", "TZ": "UTC",
            "AWS_SECRET_ACCESS_KEY": "s3cr3t", "GITHUB_TOKEN": "t0k3n", "SSH_AUTH_SOCK": "/x",
            "HOME": "/root", "HIP_PLATFORM": "nvidia", "MAKEFLAGS": "-j99"}
    env = sandbox_env(user, {"HIP_PLATFORM": "amd", "PATH": "/opt/rocm/bin:/usr/bin"},
                      Path("/s/home"), Path("/s/tmp"))
    assert env == {"PATH": "/opt/rocm/bin:/usr/bin", "LANG": "C.UTF-8", "LC_ALL": "C",
                   "TZ": "UTC", "HIP_PLATFORM": "amd", "HOME": "/s/home", "TMPDIR": "/s/tmp"}


def test_what_the_sandbox_hides_shows_and_mounts(tmp_path):
    root = tmp_path / "root"  # a chroot: /home, /tmp and an empty /work
    for folder in ("home", "tmp", "work", "usr/bin", "etc"):
        (root / folder).mkdir(parents=True)
    (root / "etc" / "shadow").write_text("root:x\n")
    (root / "usr" / "bin" / "cmake").write_text("")
    sandbox = sandbox_for("bwrap", root, {"HOME": "/home/me", "TMPDIR": "/tmp"},
                          readable=[Path("/home/me/rocm"), Path("/usr")],
                          writable=[Path("/work/wt/bd"), Path("/tmp/hipport-build-1")])
    assert sandbox.hidden == (Path("/home"), Path("/tmp"))  # the root's own; no /root there
    assert sandbox.hidden_files == (Path("/etc/shadow"),)
    assert sandbox.readable == (Path("/home/me/rocm"),)  # /usr is not hidden: seen anyway
    assert sandbox.covered == (Path("/work"),)  # empty: a mount point for /work/wt/bd
    assert sandbox.writable == (Path("/tmp/hipport-build-1"), Path("/work/wt/bd"))


def test_a_home_of_slash_hides_nothing_of_the_system(tmp_path):
    (tmp_path / "usr").mkdir()
    assert sandbox_for("bwrap", tmp_path, {"HOME": "/"}).hidden == ()


@pytest.fixture
def no_bwrap(tmp_path, monkeypatch) -> None:
    """A PATH with the machine's programs but bwrap."""
    folder = tmp_path / "path"
    folder.mkdir()
    for name in ("sh", "bash", "env", "cat", "sleep"):
        os.symlink(f"/bin/{name}", folder / name)
    monkeypatch.setenv("PATH", str(folder))


@pytest.mark.parametrize("command", [
    pytest.param(["verify", "{tree}"], id="verify"),
    pytest.param(["convert", "{tree}", "-o", "{out}", "--verify"], id="convert"),
    pytest.param(["report", "{tree}", "--verify"], id="report"),
])
def test_without_bwrap_a_build_is_refused(tmp_path, toolchain, no_bwrap, command):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "k.cu": "__global__ void k() {}\n"})
    out = tmp_path / "out"
    args = [a.format(tree=src, out=out) for a in command]
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "in a sandbox made with bubblewrap, and bwrap is not on PATH: install it (Debian: " \
           "apt install bubblewrap), or pass --no-sandbox" in result.stderr
    assert not calls(tmp_path) and not out.exists()  # nothing built, nothing converted
    unsandboxed = run(*args, "--no-sandbox")
    assert unsandboxed.exit_code == 0, unsandboxed.output
    assert "hipport: --no-sandbox: the build runs the project's own CMake and Make code " \
           "without a sandbox" in unsandboxed.stderr
    assert [c[0] for c in calls(tmp_path)] == ["cmake", "cmake"]


def test_units_need_no_sandbox(tmp_path, toolchain, no_bwrap):
    src = tree(tmp_path / "t", {"a.hip": ""})
    assert run("verify", src).exit_code == 0  # no build file: --units, no bwrap needed
    refused = run("verify", src, "--units", "--no-sandbox")
    assert refused.exit_code == 2 and "--no-sandbox only applies to --build" in refused.stderr


def test_a_toolchain_without_its_root_file_is_named(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    result = run("verify", src)
    assert result.exit_code == 2
    assert f"do not name their chroot ({toolchain}/bin/.root): run " \
           "scripts/setup-rocm-modern.sh again" in result.stderr


def test_a_relative_build_dir_is_one_folder(tmp_path, toolchain, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS, "mk/Makefile": "all:\n"})
    result = verify_build(src, "--build-dir", "bd")
    assert result.exit_code == 0, result.output
    configure = next(c for c in calls(tmp_path) if "-S" in c)
    make = next(c for c in calls(tmp_path) if c[0] == "make")
    assert Path(configure[configure.index("-B") + 1]) == tmp_path / "bd" / "t-cmake"
    assert Path(make[make.index("-C") + 1]) == tmp_path / "bd" / "source" / "1-t" / "mk"


def test_a_build_dir_in_use_is_refused(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"CMakeLists.txt": LISTS})
    kept = tmp_path / "kept"
    assert verify_build(src, "--build-dir", kept).exit_code == 0
    with writing_under([kept]):  # another run building there now
        busy = verify_build(src, "--build-dir", kept)
    assert busy.exit_code == 2
    assert f"another hipport run is writing under {kept}; wait for it to finish (two builds " \
           "in one --build-dir would write over each other's files" in busy.stderr


def test_links_are_copied_as_links(tmp_path, toolchain):
    data = tree(tmp_path / "data", {f"{i}.bin": "x" * 1000 for i in range(50)})
    src = tree(tmp_path / "t", {"Makefile": "all:\n", "inc/h.h": ""})
    os.symlink(data, src / "data")  # a data folder outside the tree (or /: 9.4 GB copied)
    os.symlink("inc", src / "include")  # inside the tree
    os.symlink("missing", src / "dangling")
    kept = tmp_path / "kept"
    began = time.monotonic()
    result = verify_build(src, "--build-dir", kept)
    assert result.exit_code == 0, result.output
    assert time.monotonic() - began < 30
    copy = kept / "source" / "1-t"
    assert os.readlink(copy / "data") == str(data)
    assert os.readlink(copy / "include") == "inc"
    assert not os.path.lexists(copy / "dangling")
    assert sum(f.stat().st_size for f in copy.rglob("*") if not f.is_symlink()
               and f.is_file()) < 100


def test_a_link_loop_is_skipped_and_said(tmp_path, toolchain):
    src = tree(tmp_path / "t", {"Makefile": "all:\n"})
    os.symlink("loop2", src / "loop1")
    os.symlink("loop1", src / "loop2")
    result = verify_build(src, "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["summary"]["built"] == 1
    assert data["skipped"] == [
        {"path": str(src / "loop1"), "reason": "skipped: a symbolic link loop; not copied"},
        {"path": str(src / "loop2"), "reason": "skipped: a symbolic link loop; not copied"}]
    text = verify_build(src).stderr
    assert f"{src}/loop1: skipped: a symbolic link loop; not copied" in text


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stopped_build_leaves_nothing(tmp_path, toolchain, monkeypatch, signum):
    """Items 8 and 13: the scratch folder and the compilers' temporary files
    (a stand-in make writes one to $TMPDIR) are gone, whatever stops verify."""
    temp = tmp_path / "temp"
    temp.mkdir()
    make = toolchain / "bin" / "make"
    temporary = 'step=BUILD\necho t > "$TMPDIR/cc-1.o"\n'  # as a compiler's
    executable(make, make.read_text().replace("step=BUILD\n", temporary, 1))
    src = tree(tmp_path / "t", {"Makefile": "all:\n"})
    env = dict(os.environ, TMPDIR=str(temp), FAKE_HANG="1")
    proc = subprocess.Popen([sys.executable, "-m", "hipport", "verify", str(src),
                             "--no-sandbox"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    pids = tmp_path / "pids"
    deadline = time.monotonic() + 60
    while (not pids.exists() or len(pids.read_text().split()) < 3) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert any(temp.iterdir())  # the build runs, its files are in $TMPDIR
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    assert list(temp.iterdir()) == []
    assert survivors(pids) == []


def test_a_time_limit_shorter_than_hipccs_answer_is_named(tmp_path, monkeypatch):
    """Item 14: `--timeout 0.001` said "no HIP compiler ... Install hipcc"."""
    slow = executable(tmp_path / "bin" / "hipcc", "#!/bin/sh\nsleep 5\necho 'HIP version: 6.4'\n")
    monkeypatch.delenv("HIPCC", raising=False)
    src = tree(tmp_path / "t", {"a.hip": ""})
    result = run("verify", src, "--hipcc", slow, "--timeout", "0.2")
    assert result.exit_code == 2
    assert "no HIP compiler answered --version within 0.2 s (tried --hipcc: " in result.stderr
    assert result.stderr.rstrip().endswith("give a longer --timeout")
    assert "Install hipcc" not in result.stderr
