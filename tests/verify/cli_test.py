"""`hipport verify` and `convert --verify` without a real compiler: a stand-in
hipcc (a shell script) shows which compiler is found, the command lines, the
time limit, exit codes and refusals."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.conftest import REPO
from tests.leftovers import sleepers, survivors

SCHEMA = json.loads((REPO / "docs" / "verify.schema.json").read_text())

# Answers --version like hipcc 5.2; rejects the GPU targets gfx9000 and gfx1250
# as Clang 15 does; compiles by printing its arguments (one a line) to
# $FAKE_LOG and writing "object" to its -o file, fails on files that contain
# BROKEN, sleeps on SLOW.  The empty unit verify checks the targets with is
# not logged.
FAKE_HIPCC = """\
#!/bin/sh
if [ "$1" = "--version" ]; then
  echo "HIP version: 9.8.12345-0"; echo "clang version 77.0.1"; exit 0
fi
for arg; do case "$arg" in --offload-arch=gfx9000*|--offload-arch=gfx1250*)
  echo "clang: error: invalid target ID '${arg#--offload-arch=}'; format is a processor name" >&2
  exit 1 ;;
esac; done
for last; do :; done
[ "$last" = /dev/null ] && exit 0
out=; previous=
for last; do [ "$previous" = "-o" ] && out=$last; previous=$last; done
[ -n "$out" ] && echo object > "$out"
[ -n "$FAKE_LOG" ] && printf '%s\\n' "$HIP_PLATFORM" "$@" "--" >> "$FAKE_LOG"
if grep -q SLOW "$last"; then sleep 30; fi
if grep -q BROKEN "$last"; then
  echo "clang: warning: argument unused during compilation: '-L/usr/lib'" >&2
  line=$(grep -n BROKEN "$last" | head -n 1 | cut -d: -f1)
  echo "$last:$line:7: error: use of undeclared identifier 'BROKEN'" >&2
  echo "1 error generated when compiling for gfx90a." >&2
  exit 1
fi
exit 0
"""


@pytest.fixture
def fake_hipcc(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    hipcc = folder / "hipcc"
    hipcc.write_text(FAKE_HIPCC)
    hipcc.chmod(hipcc.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log"))
    monkeypatch.delenv("HIPCC", raising=False)
    monkeypatch.delenv("HIP_PLATFORM", raising=False)
    # hipport's ROCm toolchain and $ROCM_PATH come before hipcc on PATH: out of sight.
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(tmp_path / "no-toolchain"))
    monkeypatch.delenv("ROCM_PATH", raising=False)
    return hipcc


def calls(tmp_path: Path) -> list[list[str]]:
    text = (tmp_path / "log").read_text() if (tmp_path / "log").exists() else ""
    return [c.strip("\n").split("\n") for c in text.split("--\n") if c.strip()]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_every_unit_compiled_with_platform_arch_and_flags(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "ok", "sub/b.hip": "ok", "h.cuh": "header",
                                "CMakeLists.txt": "include_directories(inc)\n"
                                "set(CMAKE_HIP_ARCHITECTURES \"gfx942;gfx90a\")\n"})
    result = run("verify", src, "--units", "--hipcc", fake_hipcc, "--strict", "-j", "1")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines()[-1].startswith(
        "2 of 2 translation units compile with hipcc (HIP 9.8, clang 77.0.1) for gfx942 (")
    first, second = calls(tmp_path)
    assert first[0] == "amd"  # HIP_PLATFORM, whatever the environment says
    assert first[1:] == ["--offload-arch=gfx942", "-std=c++17", "-I", str(src / "inc"), "-c",
                         "-o", first[-4], "-x", "hip", str(src / "a.cu")]
    assert second[-1] == str(src / "sub" / "b.hip")


def test_offload_arch_and_syntax_only_and_extra_arguments(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    result = run("verify", src, "--hipcc", fake_hipcc, "--offload-arch", "gfx90a;gfx1100",
                 "--syntax-only", "--hipcc-arg=-DX=1", "--hipcc-arg=-std=c++20")
    assert result.exit_code == 0, result.output
    assert calls(tmp_path)[0][1:] == ["--offload-arch=gfx90a", "--offload-arch=gfx1100",
                                      "-DX=1", "-std=c++20", "-fsyntax-only", "-x", "hip",
                                      str(src / "a.cu")]
    assert "for gfx90a;gfx1100, syntax only" in result.stderr


def test_a_failing_unit_is_a_finding_exit_1_only_under_strict(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "x\nBROKEN\n"})
    result = run("verify", src, "--hipcc", fake_hipcc)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert any(line.endswith("b.cu:2:7: HP020 error: use of undeclared identifier 'BROKEN' "
                             "(compiling for gfx90a)") for line in lines), lines
    assert lines[-1].startswith("1 of 2 translation units compile")
    assert run("verify", src, "--hipcc", fake_hipcc, "--strict").exit_code == 1


def test_json_follows_the_schema(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "x\nBROKEN\n"})
    result = run("verify", src, "--hipcc", fake_hipcc, "-f", "json", "--strict")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["summary"]["units"] == 2 and data["summary"]["failed"] == 1
    (finding,) = data["findings"]
    assert finding["code"] == "HP020" and finding["location"]["line"] == 2
    assert finding["compiler"]["target"] == "gfx90a" and data["exit_code"] == 1


def test_a_unit_over_the_time_limit_is_stopped(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"slow.cu": "SLOW", "a.cu": "ok"})
    began = time.monotonic()
    result = run("verify", src, "--hipcc", fake_hipcc, "--timeout", "0.5", "-f", "json")
    assert time.monotonic() - began < 20
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert [f["code"] for f in data["findings"]] == ["HP021"]
    assert data["summary"]["timed_out"] == 1


def test_no_compiler_says_what_was_tried(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("ROCM_PATH", str(tmp_path / "rocm"))
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("HIPCC", raising=False)
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    result = run("verify", src)
    assert result.exit_code == 2
    assert "no HIP compiler to verify with" in result.stderr
    assert f"toolchain: {tmp_path / 'cache' / 'bin' / 'hipcc'} (not found)" in result.stderr
    assert f"ROCM_PATH: {tmp_path / 'rocm' / 'bin' / 'hipcc'} (not found)" in result.stderr
    assert "hipcc on PATH (not found)" in result.stderr


def test_a_named_compiler_that_is_missing_is_not_replaced(tmp_path, fake_hipcc, monkeypatch):
    monkeypatch.setenv("PATH", f"{fake_hipcc.parent}{os.pathsep}{os.environ['PATH']}")
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    assert run("verify", src).exit_code == 0  # hipcc on PATH
    result = run("verify", src, "--hipcc", tmp_path / "nope")
    assert result.exit_code == 2 and f"--hipcc: {tmp_path / 'nope'} (not found)" in result.stderr
    monkeypatch.setenv("HIPCC", str(tmp_path / "nope"))
    result = run("verify", src)
    assert result.exit_code == 2 and "HIPCC:" in result.stderr


def test_hipcc_from_the_environment(tmp_path, fake_hipcc, monkeypatch):
    monkeypatch.setenv("HIPCC", str(fake_hipcc))
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    assert run("verify", src).exit_code == 0 and calls(tmp_path)


@pytest.mark.parametrize("args, message", [
    pytest.param(["--diff"], "--diff writes nothing", id="diff"),
    pytest.param([], "a dry run writes nothing", id="dry-run"),
])
def test_convert_verify_needs_written_files(tmp_path, fake_hipcc, args, message):
    src = tree(tmp_path / "t", {"a.cu": "int main() {}\n"})
    result = run("convert", src, "--verify", "--hipcc", fake_hipcc, *args)
    assert result.exit_code == 2 and message in result.stderr
    assert not calls(tmp_path)


def test_hipcc_without_verify_is_refused(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "int main() {}\n"})
    result = run("convert", src, "-o", tmp_path / "out", "--hipcc", fake_hipcc)
    assert result.exit_code == 2 and "only apply to --verify" in result.stderr


def test_convert_verify_names_the_original_line(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"k.cu": "__global__ void k() {}\nBROKEN\n"})
    out = tmp_path / "out"
    result = run("convert", src, "-o", out, "--verify", "--hipcc", fake_hipcc, "--strict")
    assert result.exit_code == 1, result.output
    # The converted file gained the runtime include: its line 3 is line 2 of the CUDA file.
    assert (out / "k.cu").read_text().splitlines()[2] == "BROKEN"
    lines = result.stderr.splitlines()
    at = lines.index(next(line for line in lines if "HP020" in line))
    assert lines[at].endswith("k.cu:3:7: HP020 error: use of undeclared identifier 'BROKEN' "
                              "(compiling for gfx90a)")
    assert lines[at + 1] == f"  original: {src / 'k.cu'}:2"


def test_convert_in_place_verify(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"k.cu": "int main() {}\n"})
    result = run("convert", src, "--in-place", "--verify", "--hipcc", fake_hipcc)
    assert result.exit_code == 0, result.output
    assert [c[-1] for c in calls(tmp_path)] == [str(src / "k.cu")]
    assert "1 of 1 translation unit compiles" in result.stderr


def test_units_failing_in_the_same_header_are_one_finding_in_text(tmp_path, fake_hipcc):
    header = tmp_path / "t" / "common.h"
    fake = fake_hipcc.read_text().replace(
        'echo "$last:$line:7:', f'echo "In file included from $last:1:" >&2; echo "{header}:5:7:')
    fake_hipcc.write_text(fake)
    src = tree(tmp_path / "t", {"a.cu": "BROKEN", "b.cu": "BROKEN", "c.cu": "BROKEN",
                                "common.h": "\n" * 9})
    result = run("verify", src, "--hipcc", fake_hipcc, "-j", "1")
    findings = [line for line in result.stderr.splitlines() if "HP020" in line]
    assert len(findings) == 1 and findings[0].endswith(
        "common.h:5:7: HP020 error: use of undeclared identifier 'BROKEN' (compiling for gfx90a)")
    assert "  in translation unit " in result.stderr
    assert result.stderr.count("and 2 more with the same first error") == 1
    data = json.loads(run("verify", src, "--hipcc", fake_hipcc, "-f", "json").stdout)
    assert len(data["findings"]) == 3  # JSON keeps every unit


def test_a_hanging_version_probe_obeys_the_timeout(tmp_path, fake_hipcc):
    """Issue 24: ``hipcc --version`` that hangs blocked verify for 120 s,
    outside --timeout, and left its children running."""
    pids = tmp_path / "pids"
    fake_hipcc.write_text("#!/bin/sh\n" + sleepers(pids))
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    began = time.monotonic()
    result = run("verify", src, "--hipcc", fake_hipcc, "--timeout", "1")
    assert time.monotonic() - began < 15
    assert result.exit_code == 2
    assert f"--hipcc: {fake_hipcc} (hipcc did not answer within 1 s)" in result.stderr
    assert survivors(pids) == []


def test_a_unit_over_the_time_limit_leaves_no_process_behind(tmp_path, fake_hipcc):
    pids = tmp_path / "pids"
    fake_hipcc.write_text(FAKE_HIPCC.replace("sleep 30", sleepers(pids).strip()))
    src = tree(tmp_path / "t", {"slow.cu": "SLOW"})
    result = run("verify", src, "--hipcc", fake_hipcc, "--timeout", "0.5", "-f", "json")
    assert json.loads(result.stdout)["summary"]["timed_out"] == 1
    assert len(pids.read_text().split()) == 3 and survivors(pids) == []


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "0", "-5", "100000"])
def test_a_timeout_that_is_no_time_limit_is_a_usage_error(tmp_path, fake_hipcc, value):
    """Issue 24: nan, inf and 1e308 ended in an internal error
    (ValueError/OverflowError) after the compilers had been started."""
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    result = run("verify", src, "--hipcc", fake_hipcc, "--timeout", value)
    assert result.exit_code == 2
    assert result.stderr.startswith("hipport: error: --timeout ")
    assert "positive number of seconds" in result.stderr or "at most 86400" in result.stderr
    assert "internal error" not in result.stderr and not calls(tmp_path)


def test_no_compiler_outlives_an_error_in_verify(tmp_path, fake_hipcc):
    """Whatever stops verify (here a time limit no process can be given,
    past the option check), the compilers it started are stopped with it:
    they were left running, reparented to PID 1."""
    from hipport.verify import Compiler, Settings, find_units
    from hipport.verify.session import verify_units

    pids = tmp_path / "pids"
    fake_hipcc.write_text(f'#!/bin/sh\necho $$ >> "{pids}"\n' + sleepers(pids))
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "ok"})
    compiler = Compiler(str(fake_hipcc), "9.8", None, (("PATH", "/usr/bin:/bin"),))
    with pytest.raises(ValueError):
        verify_units(find_units([src]), compiler, Settings(timeout=float("nan"), jobs=2), [src])
    time.sleep(1.0)  # time enough for a compiler left running to start its children
    assert survivors(pids) == []


def test_compiler_output_is_shown_without_terminal_control(tmp_path, fake_hipcc):
    fake = fake_hipcc.read_text().replace(
        "error: use of undeclared identifier 'BROKEN'\"",
        "\\033[1;31merror:\\033[0m use of undeclared identifier 'BROKEN'\\033]0;pwned\\007\"")
    clear = "printf '\\033[2J'; "
    fake_hipcc.write_text(fake.replace('echo "$last:$line', clear + 'echo "$last:$line'))
    src = tree(tmp_path / "t", {"b.cu": "x\nBROKEN\n"})
    text = run("verify", src, "--hipcc", fake_hipcc)
    assert "b.cu:2:7: HP020 error: use of undeclared identifier 'BROKEN' (compiling for gfx90a)" \
        in text.stderr, text.stderr
    assert "\x1b" not in text.stderr and "\x07" not in text.stderr
    data = json.loads(run("verify", src, "--hipcc", fake_hipcc, "-f", "json").stdout)
    (finding,) = data["findings"]
    assert "\x1b" not in finding["output"] and "\x07" not in finding["output"]
    assert "error: use of undeclared identifier 'BROKEN'" in finding["output"]


def test_a_relative_hipcc_is_run_as_given_from_every_folder(tmp_path, fake_hipcc, monkeypatch):
    """Issue 24: ``--hipcc bin/hipcc`` passed the version probe, then every
    unit (compiled in its own folder) failed with 'cannot run bin/hipcc'."""
    src = tree(tmp_path / "t", {"a.cu": "ok", "sub/b.cu": "ok"})
    monkeypatch.chdir(tmp_path)
    result = run("verify", "t", "--hipcc", "bin/hipcc", "--strict")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1].startswith("2 of 2 translation units compile")
    assert f"hipcc: {fake_hipcc}; chosen: named with --hipcc" in result.stderr
    # (in either order: the units compile at once, two jobs)
    assert sorted(c[-1] for c in calls(tmp_path)) == [str(src / "a.cu"), str(src / "sub" / "b.cu")]
    monkeypatch.setenv("HIPCC", "bin/hipcc")
    data = json.loads(run("verify", "t", "-f", "json").stdout)
    assert data["compiler"]["path"] == str(fake_hipcc) and data["summary"]["failed"] == 0
    assert {tuple(u["command"][:1]) for u in data["units"]} == {(str(fake_hipcc),)}


def test_a_version_of_random_bytes_is_refused(tmp_path, fake_hipcc):
    """Issue 24: verify took any answer to --version."""
    fake_hipcc.write_text("#!/bin/sh\nhead -c 300 /dev/urandom\n")
    src = tree(tmp_path / "t", {"a.cu": "ok"})
    result = run("verify", src, "--hipcc", fake_hipcc)
    assert result.exit_code == 2 and not calls(tmp_path)
    assert f"--hipcc: {fake_hipcc} (its --version says no 'HIP version: X.Y'" in result.stderr


def test_a_compiler_that_cannot_be_run_fails_the_run(tmp_path, fake_hipcc):
    """Issue 24: every unit failed with 'cannot run ...' and verify exited 0
    (without --strict): not a finding about the tree, an error of the run."""
    fake_hipcc.write_text(FAKE_HIPCC.replace('exit 0\nfi', 'chmod a-x "$0"; exit 0\nfi', 1))
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "ok"})
    result = run("verify", src, "--hipcc", fake_hipcc)
    assert result.exit_code == 2
    assert f"hipport: error: cannot run {fake_hipcc}: Permission denied" in result.stderr
    assert "HP020" not in result.stderr and not calls(tmp_path)


def test_exit_status_0_without_an_object_file_is_a_failure(tmp_path, fake_hipcc):
    """Issue 24: verify never looked at the object file; a compiler (or a
    wrapper) that exits 0 without writing it compiled nothing."""
    fake_hipcc.write_text(FAKE_HIPCC.replace('[ -n "$out" ] && echo object > "$out"',
                                             'grep -q NOOBJECT "$last" || echo object > "$out"'))
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "NOOBJECT\n"})
    result = run("verify", src, "--units", "--hipcc", fake_hipcc, "--strict", "-j", "1")
    assert result.exit_code == 1
    assert any(line.endswith("b.cu:1: HP020 error: hipcc exited with status 0 but wrote no "
                             "object file") for line in result.stderr.splitlines()), result.stderr
    assert result.stderr.splitlines()[-1].startswith("1 of 2 translation units compile")
    # -fsyntax-only writes no object: nothing to look for.
    assert run("verify", src, "--hipcc", fake_hipcc, "--strict", "--syntax-only").exit_code == 0


@pytest.mark.parametrize("given, message", [
    pytest.param("gfx9000", "--offload-arch gfx9000: not a GPU target hipcc (HIP 9.8, clang "
                 "77.0.1) knows; did you mean `gfx900`", id="typo"),
    pytest.param("gfx90a;gfx1250", "--offload-arch gfx1250: not a GPU target hipcc (HIP 9.8, "
                 "clang 77.0.1) knows (a newer Clang does)", id="newer-than-the-compiler"),
])
def test_a_gpu_target_the_compiler_does_not_know_is_one_usage_error(tmp_path, fake_hipcc,
                                                                      given, message):
    """Issue 24: a bogus --offload-arch gave one error per unit."""
    src = tree(tmp_path / "t", {"a.cu": "ok", "b.cu": "ok", "c.cu": "ok"})
    result = run("verify", src, "--hipcc", fake_hipcc, "--offload-arch", given)
    assert result.exit_code == 2 and not calls(tmp_path)
    assert result.stderr.startswith(f"hipport: error: {message}"), result.stderr
    assert "HP020" not in result.stderr


def test_a_target_of_the_build_files_the_compiler_does_not_know(tmp_path, fake_hipcc):
    src = tree(tmp_path / "t", {"a.cu": "ok", "CMakeLists.txt":
                                'set(CMAKE_HIP_ARCHITECTURES "gfx1250;gfx90a")\n'})
    result = run("verify", src, "--hipcc", fake_hipcc)
    assert result.exit_code == 2 and not calls(tmp_path)
    assert "the build files' first target gfx1250: not a GPU target" in result.stderr
    assert run("verify", src, "--units", "--hipcc", fake_hipcc, "--offload-arch",
               "gfx90a").exit_code == 0


def test_a_long_output_says_it_was_cut(tmp_path, fake_hipcc):
    """Issue 24: the JSON cut the output at 20,000 characters without a word."""
    noise = 'i=0; while [ $i -lt 600 ]; do echo "note: line $i of a long template backtrace" >&2;' \
            ' i=$((i+1)); done\n'
    fake_hipcc.write_text(FAKE_HIPCC.replace("if grep -q BROKEN", noise + "if grep -q BROKEN"))
    src = tree(tmp_path / "t", {"a.cu": "BROKEN\n"})
    (finding,) = json.loads(run("verify", src, "--hipcc", fake_hipcc, "-f", "json").stdout)[
        "findings"]
    whole = "".join(f"note: line {i} of a long template backtrace\n" for i in range(600)) + (
        "clang: warning: argument unused during compilation: '-L/usr/lib'\n"
        f"{src / 'a.cu'}:1:7: error: use of undeclared identifier 'BROKEN'\n"
        "1 error generated when compiling for gfx90a.\n")
    cut = len(whole) - 20_000
    assert finding["output_cut"] == cut > 0
    assert finding["output"].startswith(f"[hipport: the first {cut} characters were cut]\n")
    assert finding["output"].endswith("1 error generated when compiling for gfx90a.\n")
    assert finding["location"]["line"] == 1  # the first error, found in the whole output
    short = tree(tmp_path / "u", {"a.cu": "BROKEN\n"})
    fake_hipcc.write_text(FAKE_HIPCC)
    (finding,) = json.loads(run("verify", short, "--hipcc", fake_hipcc, "-f", "json").stdout)[
        "findings"]
    assert finding["output_cut"] == 0 and finding["output"].startswith("clang: warning")


@pytest.mark.slow  # a hipport process, stopped while it compiles
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stopped_verify_leaves_no_compiler_running(tmp_path, fake_hipcc, signum):
    pids = tmp_path / "pids"
    fake_hipcc.write_text(FAKE_HIPCC.replace("sleep 30", sleepers(pids).strip()))
    src = tree(tmp_path / "t", {"a.cu": "SLOW", "b.cu": "SLOW"})
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "hipport", "verify", str(src), "--hipcc",
                             str(fake_hipcc), "-j", "2"], env=env, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 30
    while len(pids.read_text().split() if pids.exists() else []) < 6:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum, err
    assert survivors(pids) == []


@pytest.mark.parametrize("hipcc", [
    pytest.param("missing", id="missing"),
    pytest.param("broken", id="broken"),
])
def test_convert_in_place_verify_probes_before_it_writes(tmp_path, fake_hipcc, hipcc):
    """Issue 26: a missing or broken compiler was found only after the tree
    had been converted in place."""
    if hipcc == "broken":
        fake_hipcc.write_text("#!/bin/sh\necho 'not a compiler'\nexit 3\n")
    named = fake_hipcc if hipcc == "broken" else tmp_path / "nowhere" / "hipcc"
    cuda = "#include <cuda_runtime.h>\nint main() { cudaDeviceSynchronize(); }\n"
    src = tree(tmp_path / "t", {"k.cu": cuda})
    result = run("convert", src, "--in-place", "--verify", "--hipcc", named)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("hipport: error: no HIP compiler to verify with"), \
        result.stderr
    assert (src / "k.cu").read_text() == cuda
