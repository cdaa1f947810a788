"""What a person at a terminal sees (issue 19): hipport runs under a
pseudo-terminal (`os.openpty`), as in an interactive shell, and with its
output piped, as in a script.  Progress and colour appear on the terminal
only; NO_COLOR and --color decide over them; a closed pipe ends quietly."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.terminal import Seen, run_in_terminal
from tests.conftest import REPO

pytestmark = pytest.mark.slow  # a process per run, under a pseudo-terminal

ANSI = re.compile(rb"\x1b\[[0-9;]*m")
KERNEL = (b"#include <cuda_runtime.h>\n__global__ void k(int* out) {\n"
          b"  int lane = threadIdx.x & 31;\n  out[lane] = lane;\n}\n"
          b"void f(float* p) { cudaFree(p); }\n")


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONPATH=str(REPO), **extra)
    return env


def in_terminal(*args: str, columns: int = 120, **env: str) -> Seen:
    return run_in_terminal([sys.executable, "-m", "hipport", *args], environment(**env),
                           columns=columns)


def piped(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "hipport", *args], capture_output=True,
                          env=environment(**env), timeout=120)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(40):
        (src / f"k{i:02d}.cu").write_bytes(KERNEL.replace(b"void k(", f"void k{i}(".encode()))
    return src


def test_progress_on_a_terminal_only(tree: Path, tmp_path: Path):
    seen = in_terminal("convert", str(tree), "-o", str(tmp_path / "a"), "-j", "1")
    assert seen.exit_code == 0
    assert b"converting" in seen.raw and b"40" in seen.raw  # the bar, with its total
    assert b"files converted" in seen.raw
    quiet = in_terminal("convert", str(tree), "-o", str(tmp_path / "q"), "-j", "1", "-q")
    assert b"converting" not in quiet.raw
    result = piped("convert", str(tree), "-o", str(tmp_path / "b"), "-j", "1")
    assert result.returncode == 0 and b"converting" not in result.stderr


def test_colour_on_a_terminal_none_when_piped_or_no_color(tree: Path):
    file = str(tree / "k00.cu")
    seen = in_terminal("convert", file)
    assert ANSI.search(seen.raw), seen.raw
    assert b"HP401" in ANSI.sub(b"", seen.raw)
    assert not ANSI.search(in_terminal("convert", file, NO_COLOR="1").raw)
    assert not ANSI.search(in_terminal("convert", file, "--color", "never").raw)
    assert not ANSI.search(in_terminal("convert", file, TERM="dumb").raw)
    result = piped("convert", file)
    assert not ANSI.search(result.stderr) and b"HP401" in result.stderr
    forced = piped("convert", file, "--color", "always", NO_COLOR="1")
    assert ANSI.search(forced.stderr)


def test_diff_coloured_on_a_terminal(tree: Path):
    file = str(tree / "k00.cu")
    seen = in_terminal("convert", file, "--diff")
    assert b"\x1b[32m+void f(float* p) { hipFree(p); }" in seen.raw
    assert b"\x1b[31m-void f(float* p) { cudaFree(p); }" in seen.raw
    plain = piped("convert", file, "--diff")
    assert b"\n+void f(float* p) { hipFree(p); }\n" in plain.stdout
    assert not ANSI.search(plain.stdout)


def test_explain_renders_markdown_on_a_terminal():
    seen = ANSI.sub(b"", in_terminal("explain", "HP401").raw)
    assert b"Why" in seen and b"## Why" not in seen and b"```" not in seen
    plain = piped("explain", "HP401")
    assert b"## Why" in plain.stdout and not ANSI.search(plain.stdout)


def test_report_never_wraps_a_location_on_a_narrow_terminal(tmp_path: Path):
    src = tmp_path / "a_rather_long_folder_name" / "and_a_second_level"
    src.mkdir(parents=True)
    (src / "kernels_with_long_names.cu").write_bytes(
        b"void f() { cudaOccupancyMaxActiveClusters(0, 0, 0); }\n" + KERNEL)
    seen = ANSI.sub(b"", in_terminal("report", str(tmp_path), columns=90).raw)
    location = b"a_rather_long_folder_name/and_a_second_level/kernels_with_long_names.cu:1"
    assert location in seen, seen.decode()


@pytest.mark.parametrize("columns", [80, 60])
def test_report_ledger_stays_readable_at_80_columns_and_less(columns: int):
    # Before: the unwrapped location column left 3-5 characters to the others,
    # and `__syncwarp` or `unsupported` was folded over six lines (the
    # examples' ledger now says `emulated`: a polyfill stands in).
    seen = ANSI.sub(b"", in_terminal("report", str(REPO / "examples"), columns=columns).raw)
    text = seen.decode().replace("\r\n", "\n")
    ledger = text[text.index("Unmapped-API ledger"):text.index("Portability hazards")]
    for whole in ("__syncwarp", "__CUDA_ARCH__", "__NVCC__", "emulated",
                  "warp_hazards/warp_hazards.cu:101", "warp_hazards/warp_hazards.cu:43 (+1)"):
        assert whole in ledger, ledger


def test_a_closed_pipe_ends_quietly_for_the_text_report():
    # rich's console used to exit 1 for the text report (`report | true`).
    # The reader is gone before the first write: the outcome cannot depend
    # on whether the output fits in the pipe's buffer.
    proc = subprocess.Popen([sys.executable, "-m", "hipport", "report", "examples"], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment())
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    error = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert b"Traceback" not in error and b"internal error" not in error, error.decode()


def test_a_closed_pipe_ends_quietly():
    # `hipport mappings list | head -1`: the reader goes away after one line
    proc = subprocess.Popen([sys.executable, "-m", "hipport", "mappings", "list"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment())
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    error = proc.stderr.read()
    assert proc.wait(timeout=60) == 141  # as a tool killed by SIGPIPE
    assert first.count(b"\t") == 4
    assert error == b"", error.decode()
