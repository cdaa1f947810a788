"""Every external command doctor (and verify's compiler probe) runs: in its
own session, and past its time limit killed with everything it started."""
import time

from hipport.doctor.compiler import probe_compilers
from hipport.doctor.rocm import find_rocm
from hipport.doctor.system import System, run_command
from tests.leftovers import sleepers, survivors


def _script(path, text):
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)
    return path


def test_a_timeout_kills_the_children_too(tmp_path):
    pids = tmp_path / "pids"
    tool = _script(tmp_path / "tool", sleepers(pids))
    began = time.monotonic()
    answer = run_command([str(tool)], {"PATH": "/usr/bin:/bin"}, 0.5)
    assert time.monotonic() - began < 8
    assert answer.error == "tool did not answer within 0.5 s"
    assert len(pids.read_text().split()) == 3
    assert survivors(pids) == []


def test_hipconfig_timeouts_leave_no_sleep_running(tmp_path):
    """Issue 24: doctor's hipconfig time limit left three ``sleep 1000``
    running (one per hipconfig call)."""
    pids = tmp_path / "pids"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _script(bin_dir / "hipcc", 'echo "HIP version: 6.4.43484-9999"\n')
    _script(bin_dir / "hipconfig", sleepers(pids, 1))
    system = System(env={"PATH": f"{bin_dir}:/usr/bin:/bin"}, fs_root=tmp_path, timeout=0.5)
    _, checks = probe_compilers(system, None)
    assert "did not answer within 0.5 s" in next(c for c in checks if c.id == "hipcc").detail
    assert len(pids.read_text().split()) == 3
    assert survivors(pids) == []


def test_output_of_a_command_that_finishes(tmp_path):
    tool = _script(tmp_path / "tool", "echo out; echo err >&2; exit 3\n")
    answer = run_command([str(tool)], {"PATH": "/usr/bin:/bin"}, 5)
    assert (answer.returncode, answer.stdout, answer.stderr, answer.error) == (3, "out\n",
                                                                               "err\n", "")
    assert run_command([str(tmp_path / "nope")], {}, 5).error == f"{tmp_path / 'nope'} not found"


def test_tool_output_is_shown_without_terminal_control(tmp_path):
    """Issue 24: doctor printed hipconfig's raw output, ``ESC]0;...BEL``
    (window title) and ``ESC[2J`` (clear screen) included."""
    from click.testing import CliRunner

    from hipport.cli import cli

    root = tmp_path / "rocm"
    (root / "bin").mkdir(parents=True)
    (root / "include" / "hip").mkdir(parents=True)
    (root / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 4\n")
    _script(root / "bin" / "hipcc",
            r"printf '\033]0;pwned\007\033[2JHIP version: 6.4.43484-9999\r\n'" "\n")
    _script(root / "bin" / "hipconfig",
            r'''case "$1" in
--version) printf '\033]0;pwned\007\033[2J6.4.43484\r\n' ;;
--platform) printf 'amd\033[1;31m' ;;
*) printf '\033[2J/nonexistent\n' >&2; exit 1 ;;
esac
''')
    env = {"PATH": "/usr/bin:/bin", "HIP_PLATFORM": "amd"}
    _, checks = probe_compilers(System(env=env, fs_root=tmp_path),
                                find_rocm(System(env=env), root)[0])
    shown = {c.id: c for c in checks}
    assert shown["hipcc"].detail.startswith(f"{root / 'bin' / 'hipcc'} (HIP 6.4.43484-9999)")
    assert shown["hip-platform"].detail.startswith("amd (")
    assert shown["hip-clang"].detail.endswith("failed: exit status 1: /nonexistent")
    result = CliRunner().invoke(cli, ["doctor", "--root", str(root)], env=env,
                                catch_exceptions=False)
    assert "(HIP 6.4.43484-9999)" in result.output
    assert "exit status 1: /nonexistent" in result.output
    assert not any(ch in result.output for ch in "\x1b\x07\r"), repr(result.output)
