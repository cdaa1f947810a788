"""Nothing the ROCm chroot mounts outlives the call that mounted it in the
caller's mount namespace: not after a wrapper (``<cache>/bin/hipcc``,
``rocm-sid-run``) returns, fails or is killed, nor after a step of
scripts/setup-rocm-modern.sh.  Issue 24 found ``<cache>/rocm-sid/tmp``, a
bind of the host's /tmp, still mounted after a test run: ``rm -rf
/var/cache/hipport`` would have emptied /tmp.

The wrappers under test are this checkout's, rendered into a temporary
folder (``setup-rocm-modern.sh --write-wrappers``) and running the cache's
chroot; the installed ones are checked too.  Whatever could leak is run in a
throwaway mount namespace, so that a failing test leaks nothing onto the
host."""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ci import missing
from tests.toolchain import (
    CACHE_ENV,
    REPO_ROOT,
    mount_points,
    mounts_below,
    rendered_chroot_oracle,
    require_hip_oracle,
    toolchain_cache,
)

SCRIPT = REPO_ROOT / "scripts" / "setup-rocm-modern.sh"


def test_mount_points_are_read_unescaped():
    info = ("27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
            r"90 27 254:0 /tmp /var/cache/my\040cache/rocm-sid/tmp rw - ext4 /dev/vda rw" "\n"
            r"91 27 0:21 / /var/cache/my\040cache/rocm-sid\134x/proc rw - proc proc rw" "\n")
    assert mount_points(info) == ["/", "/var/cache/my cache/rocm-sid/tmp",
                                  "/var/cache/my cache/rocm-sid\\x/proc"]
    assert mounts_below("/var/cache/my cache", info) == [
        "/var/cache/my cache/rocm-sid/tmp", "/var/cache/my cache/rocm-sid\\x/proc"]
    assert mounts_below("/var/cache/my", info) == []
    assert mounts_below("/var/cache/my cache/rocm-sid/tmp", info) == []  # not itself


# ----------------------------------------------------------------- helpers --
def need_root() -> None:
    if os.geteuid() != 0:
        missing("a throwaway mount namespace (unshare --mount) needs root")


@pytest.fixture(scope="module")
def chroot_root() -> Path:
    require_hip_oracle("rocm-6.4")
    need_root()
    return toolchain_cache() / "rocm-sid"


@pytest.fixture(scope="module")
def rendered(chroot_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout's wrappers, running the cache's chroot."""
    bin_dir = tmp_path_factory.mktemp("wrappers") / "bin"
    rendered_chroot_oracle(bin_dir)
    return bin_dir


def in_throwaway_namespace(script: str, *args: str, cwd: Path,
                           env: dict[str, str] | None = None) -> tuple[int, str, list[str]]:
    """Run bash ``script`` in a mount namespace of its own, as a caller of the
    wrapper would; return its status, stderr and what is mounted under the
    cache in that namespace when the script ends."""
    info = cwd / f"mountinfo-{secrets.token_hex(4)}"
    wrapped = ('bash -c "$SCRIPT" bash "$@"; status=$?\n'
               'cat /proc/self/mountinfo > "$MOUNTINFO"; exit $status')
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "--", "bash", "-c", wrapped,
         "bash", *args],
        cwd=cwd, env=dict(env or os.environ, MOUNTINFO=str(info), SCRIPT=script),
        capture_output=True, text=True, timeout=180, check=False)
    assert info.exists(), done.stderr
    leaked = mounts_below(toolchain_cache(), info.read_text(errors="surrogateescape"))
    leaked += [p for p in mounts_below(cwd, info.read_text(errors="surrogateescape"))
               if p not in leaked]
    return done.returncode, done.stderr, leaked


def processes_with(token: str) -> list[int]:
    """Pids whose command line holds ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if token.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def reap(token: str) -> list[int]:
    """Kill what a failing test left running; return their pids."""
    pids = processes_with(token)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return pids


def run_watching(token: str, script: str, *args: str, cwd: Path,
                 env: dict[str, str]) -> tuple[int, str, list[str], list[int]]:
    """:func:`in_throwaway_namespace`, plus the processes holding ``token``
    that are still running when it returns (killed then)."""
    try:
        status, err, leaked = in_throwaway_namespace(script, *args, cwd=cwd, env=env)
        left = processes_with(token)
    finally:
        reap(token)
    return status, err, leaked, left


def fake_tool(folder: Path, name: str, text: str) -> dict[str, str]:
    """Put an executable ``name`` (bash ``text``) first on PATH."""
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("#!/bin/bash\n" + text)
    (folder / name).chmod(0o755)
    return dict(os.environ, PATH=f"{folder}:{os.environ['PATH']}")


def source_script(body: str) -> str:
    """A bash script that sources setup-rocm-modern.sh (which then only
    defines its functions) and runs ``body``."""
    return f'source {SCRIPT}\n{body}'


# ----------------------------------------------------------------- wrappers --
@pytest.mark.slow
@pytest.mark.parametrize("which", ["installed", "rendered", "installed-7.2"])
def test_no_mount_outlives_a_call(which, chroot_root, rendered, tmp_path):
    bin_dir = {"installed": chroot_root.parent / "bin", "rendered": rendered}.get(which)
    if bin_dir is None:  # the ROCm 7.2 chroot's wrappers (issue 33)
        bin_dir = Path(require_hip_oracle("rocm-7.2").hipcc).parent
    env = dict(os.environ, HIP_PLATFORM="amd")
    cache = toolchain_cache()
    version = subprocess.run([str(bin_dir / "hipcc"), "--version"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
    assert version.returncode == 0 and "HIP version" in version.stdout, version.stderr
    assert mounts_below(cache) == []
    runner = str(bin_dir / "rocm-sid-run")
    for argv, status in ((["false"], 1), (["no-such-tool-hipport"], 127),
                         (["sh", "-c", "echo x > /no-such-dir/f"], 2)):
        done = subprocess.run([runner, *argv], cwd=tmp_path, env=env, capture_output=True,
                              timeout=120, check=False)
        assert done.returncode == status, (argv, done.stderr)
        assert mounts_below(cache) == [], argv
    # Killed while the tool runs (the wrapper execs it: same pid).
    token = f"600.{secrets.randbelow(10**6):06d}"
    proc = subprocess.Popen([runner, "sleep", token], cwd=tmp_path, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if token.encode() in Path(f"/proc/{proc.pid}/cmdline").read_bytes():
                break
            time.sleep(0.02)
        proc.kill()
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        reap(token)
    assert mounts_below(cache) == []


@pytest.mark.slow
def test_enter_is_not_a_way_in(rendered, tmp_path):
    """``rocm-sid-run --enter`` used to run the inner half in the caller's
    namespace: /dev, /proc, /sys, /tmp, /var/tmp, /root... stayed bound into
    the chroot after it returned."""
    status, err, leaked = in_throwaway_namespace('"$1" --enter true',
                                                 str(rendered / "rocm-sid-run"), cwd=tmp_path)
    assert leaked == []
    assert status == 127, err  # a command called --enter, which the chroot has not


@pytest.mark.slow
def test_a_shared_root_mount_leaks_nothing(rendered, tmp_path):
    """systemd makes / a shared mount: binds in the wrapper's namespace must
    still not propagate back to the caller's."""
    status, err, leaked = in_throwaway_namespace(
        'mount --make-rshared / && "$1" --version >/dev/null',
        str(rendered / "hipcc"), cwd=tmp_path)
    assert (status, leaked) == (0, []), err


@pytest.mark.slow
@pytest.mark.parametrize("caller", ["wrapper", "setup step"])
def test_refuses_to_mount_where_mounts_would_propagate(caller, rendered, tmp_path):
    """An ``unshare`` that leaves the new namespace's mounts shared with the
    caller's (another implementation, another default) would hand every
    bind back to the caller: the wrapper and the setup steps check before
    they mount anything."""
    real = subprocess.run(["bash", "-c", "command -v unshare"], capture_output=True,
                          text=True, check=True).stdout.strip()
    env = fake_tool(tmp_path / "fake-bin", "unshare",
                    'args=()\nfor a; do [[ $a == private ]] && a=unchanged; args+=("$a"); done\n'
                    f'exec {real} "${{args[@]}}"\n')
    env[CACHE_ENV] = str(tmp_path / "cache")
    run = '"$1" true' if caller == "wrapper" else source_script('in_chroot "$2" true')
    status, err, leaked = in_throwaway_namespace(
        f"mount --make-rshared / && {run}", str(rendered / "rocm-sid-run"),
        str(toolchain_cache() / "rocm-sid"), cwd=tmp_path, env=env)
    assert leaked == []
    assert status == 125 and "shares its mounts" in err, err


# ------------------------------------------------------------- setup steps --
@pytest.mark.slow
def test_a_setup_step_leaves_no_process_and_no_mount(chroot_root, tmp_path):
    """A step run in the chroot (apt-get, the smoke test) used to leave what it
    started in the background running, and the namespace's mounts with it."""
    token = f"600.{secrets.randbelow(10**6):06d}"
    env = dict(os.environ, **{CACHE_ENV: str(tmp_path / "cache")})
    status, err, leaked, left = run_watching(
        token, source_script('in_chroot "$1" sh -c "sleep $2 >/dev/null 2>&1 & exit 3"'),
        str(chroot_root), token, cwd=tmp_path, env=env)
    assert status == 3, err
    assert leaked == []
    assert left == []


@pytest.mark.slow
def test_what_debootstrap_leaves_mounted_goes_with_it(tmp_path):
    """debootstrap mounts /proc and /sys in the new tree and unmounts them on
    exit, unless it is killed or a process keeps them busy: it used to run in
    the host's namespace, and the leak was renamed into CACHE/rocm-sid."""
    need_root()
    token = f"600.{secrets.randbelow(10**6):06d}"
    env = fake_tool(tmp_path / "fake-bin", "debootstrap",
                    'dir="${@: -2:1}"\nmkdir -p "$dir/proc"\n'
                    'mount -t tmpfs fake-proc "$dir/proc"\n'
                    f'sleep {token} >/dev/null 2>&1 &\nexit 0\n')
    env[CACHE_ENV] = str(tmp_path / "cache")
    (tmp_path / "cache" / "logs").mkdir(parents=True)
    status, err, leaked, left = run_watching(
        token, source_script('oracle_config 6.4 && run_debootstrap "$1" '
                             'http://deb.debian.org/debian'),
        str(tmp_path / "tree"), cwd=tmp_path, env=env)
    assert status == 0, err
    assert leaked == []
    assert left == []


@pytest.mark.slow
def test_remove_tree_never_deletes_through_a_mount(tmp_path):
    """``rm --one-file-system`` does not stop at a bind of the same file
    system, and the mount check missed a cache path with a space (the kernel
    writes it ``\\040``): the bound folder was emptied."""
    need_root()
    sentinel = tmp_path / "host-tmp"
    sentinel.mkdir()
    (sentinel / "keep").write_text("user data\n")
    tree = tmp_path / "my cache" / "rocm-sid.old.1"
    (tree / "tmp").mkdir(parents=True)
    (tree / "usr").mkdir()
    env = dict(os.environ, **{CACHE_ENV: str(tmp_path / "my cache")})
    status, err, leaked = in_throwaway_namespace(
        'mount --bind "$2" "$1/tmp" || exit 9\n'
        + source_script('(remove_tree "$1")'),
        str(tree), str(sentinel), cwd=tmp_path, env=env)
    assert (sentinel / "keep").read_text() == "user data\n"
    assert leaked == []
    assert status == 0, err
    assert not tree.exists()
    # A tree that is itself a mount point is not deleted at all.
    (tree / "usr").mkdir(parents=True)
    status, err, leaked = in_throwaway_namespace(
        'mount --bind "$2" "$1" || exit 9\n' + source_script('remove_tree "$1"'),
        str(tree), str(sentinel), cwd=tmp_path, env=env)
    assert (sentinel / "keep").read_text() == "user data\n"
    assert status == 1 and "is a mount point; not deleting it" in err, err


# ------------------------------------------------------------------ suite --
@pytest.mark.slow
def test_the_run_fails_when_something_stays_mounted(tmp_path):
    need_root()
    cache = tmp_path / "cache"
    (cache / "rocm-sid" / "tmp").mkdir(parents=True)
    env = dict(os.environ, **{CACHE_ENV: str(cache)})
    env.pop("CI", None)
    test = "tests/oracle_mounts_test.py::test_mount_points_are_read_unescaped"
    script = (f'mount -t tmpfs leak "$1" || exit 9\n'
              f'{sys.executable} -m pytest -q -p no:cacheprovider {test}')
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "--", "bash", "-c", script, "bash",
         str(cache / "rocm-sid" / "tmp")],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert "1 passed" in done.stdout, done.stdout + done.stderr
    assert f"mounted under {cache}" in done.stdout
    assert str(cache / "rocm-sid" / "tmp") in done.stdout
    assert done.returncode == 1
