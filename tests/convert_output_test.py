"""What `hipport convert` prints (issue 19): the concise default, the other
findings formats, --statistics, fix markers and --show-fixes, a re-run that
has nothing left to convert, and stale outputs of a mirror."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.report.helpers import validate_sarif

# Two uses of the same unsafe rename (one long catalogue note), a lane
# computation hipport can fix with --unsafe-fixes, one API with no HIP
# equivalent.
KERNEL = b"""#include <cuda_runtime.h>
__global__ void k(int* out) {
#ifdef __CUDA_ARCH__
  out[0] = 1;
#endif
#if defined(__CUDA_ARCH__)
  out[1] = 1;
#endif
  int lane = threadIdx.x & 31;
  out[lane] = lane;
  __prof_trigger(0);
}
void host(float* p) { cudaFree(p); }
"""
NOTE = "comparisons such as __CUDA_ARCH__ >= 700 in conditional directives"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_bytes(KERNEL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def finding_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("src/")]


def test_concise_default_prints_a_note_once_per_code(project: Path):
    result = run("convert", "src")
    assert result.exit_code == 0
    lines = finding_lines(result.stderr)
    arch = [line for line in lines if "`__CUDA_ARCH__`" in line]
    assert len(arch) == 2
    assert NOTE in arch[0] and NOTE not in arch[1]
    assert arch[1].endswith("`__CUDA_ARCH__` -> `__HIP_DEVICE_COMPILE__`")
    assert "`hipport explain HP904`" in result.stderr


def test_text_format_repeats_every_note(project: Path):
    result = run("convert", "src", "--output-format", "text")
    arch = [line for line in finding_lines(result.stderr) if "`__CUDA_ARCH__`" in line]
    assert len(arch) == 2 and all(NOTE in line for line in arch)
    assert "hipport explain" not in result.stderr


def test_fix_markers_and_the_unsafe_fixes_hint(project: Path):
    result = run("convert", "src")
    lines = finding_lines(result.stderr)
    lane = next(line for line in lines if "threadIdx.x & 31" in line)
    assert ": HP401 [*] `threadIdx.x & 31`" in lane
    syncwarp = next(line for line in lines if "HP901" in line)
    assert "[*]" not in syncwarp  # nothing hipport can rewrite
    marked = sum("[*]" in line for line in lines)
    assert marked == 3  # two __CUDA_ARCH__ and the lane mask
    assert f"[*] {marked} more fixes available with `--unsafe-fixes`" in result.stderr
    # with --unsafe-fixes they are applied: no marker, no hint
    applied = run("convert", "src", "--unsafe-fixes")
    assert "[*]" not in applied.stderr and "more fixes available" not in applied.stderr


def test_show_fixes_shows_before_and_after(project: Path):
    result = run("convert", "src", "--show-fixes")
    lines = result.stderr.splitlines()
    at = next(i for i, line in enumerate(lines) if "threadIdx.x & 31" in line)
    assert lines[at + 1].strip() == ("= unsafe fix: Use warpSize instead of a literal warp "
                                     "size: `threadIdx.x & 31` -> `threadIdx.x & (warpSize - 1)`")
    verbose = run("convert", "src", "--show-fixes", "-v")
    assert "[fixed] `cudaFree` -> `hipFree`" in verbose.stderr
    assert "= fix: Replace `cudaFree` with `hipFree`: `cudaFree` -> `hipFree` (applied)" \
        in verbose.stderr


def test_statistics_counts_per_code(project: Path):
    result = run("convert", "src", "--statistics")
    assert result.exit_code == 0
    rows = [line.split() for line in result.stderr.splitlines() if line.strip()[:1].isdigit()]
    assert ["2", "HP904", "[*]", "unsafe-rename"] in rows
    assert ["1", "HP401", "[*]", "warp-size-literal"] in rows
    assert ["1", "HP901", "unsupported-cuda-api"] in rows
    assert rows[0][0] == "2"  # the most frequent first
    assert not finding_lines(result.stderr)


def test_statistics_as_json(project: Path):
    result = run("convert", "src", "--statistics", "--output-format", "json")
    rows = {r["code"]: r for r in json.loads(result.stdout)}
    assert rows["HP904"] == {"code": "HP904", "name": "unsafe-rename", "severity": "warning",
                             "count": 2, "fixable_count": 2}
    assert rows["HP901"]["fixable_count"] == 0


def test_json_output_on_stdout(project: Path):
    result = run("convert", "src", "--output-format", "json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    records = document["findings"]
    lane = next(r for r in records if r["code"] == "HP401")
    assert lane["fixable"] is True and lane["fix"]["applicability"] == "unsafe"
    assert lane["fix"]["applied"] is False and lane["path"] == "src/k.cu"
    assert not any(r["code"] == "HP101" for r in records)  # applied ones need -v
    assert "1 file converted" in result.stderr  # the summary stays on stderr


def test_sarif_and_github_output(project: Path):
    sarif = run("convert", "src", "--output-format", "sarif")
    validate_sarif(sarif.stdout)
    github = run("convert", "src", "--output-format", "github")
    levels = [line.split(" ", 1)[0] for line in github.stdout.splitlines()]
    assert "::warning" in levels and "::error" not in levels


@pytest.mark.parametrize("args, message", [
    (("--diff", "--output-format", "json"), "both write to stdout"),
    (("--statistics", "--output-format", "sarif"), "--statistics prints a table"),
    (("--prune",), "--prune only applies to -o"),
])
def test_conflicting_output_options(project: Path, args, message):
    result = run("convert", "src", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_second_in_place_run_has_nothing_left_to_convert(project: Path):
    assert run("convert", "src", "--in-place").exit_code == 0
    again = run("convert", "src", "--in-place")
    assert again.exit_code == 0
    summary = again.stderr.strip().splitlines()[-1]
    assert summary.startswith("nothing left to convert in 1 file")
    assert "conversion 0.0%" not in again.stderr and "0 files converted" not in again.stderr
    assert "references remain for a person" in summary


def test_stale_outputs_are_reported_and_pruned_only_when_asked(project: Path):
    (project / "src" / "gone.cu").write_bytes(b"void g() { cudaDeviceReset(); }\n")
    (project / "src" / "sub").mkdir()
    (project / "src" / "sub" / "old.h").write_bytes(b"int x;\n")
    assert run("convert", "src", "-o", "out").exit_code == 0
    (project / "src" / "gone.cu").unlink()
    (project / "src" / "sub" / "old.h").unlink()
    (project / "src" / "sub").rmdir()
    again = run("convert", "src", "-o", "out", "--force")
    assert again.exit_code == 0
    assert "2 files in out have no counterpart in the input" in again.stderr
    assert "  out/gone.cu\n" in again.stderr and "  out/sub/old.h\n" in again.stderr
    assert (project / "out" / "gone.cu").exists()  # never deleted silently
    pruned = run("convert", "src", "-o", "out", "--force", "--prune")
    assert pruned.exit_code == 0
    assert "removed out/gone.cu (not in the input)" in pruned.stderr
    assert not (project / "out" / "gone.cu").exists()
    assert not (project / "out" / "sub").exists()  # emptied folder removed too
    assert (project / "out" / "k.cu").exists()
    quiet = run("convert", "src", "-o", "out", "--force")
    assert "no counterpart" not in quiet.stderr


def test_prune_keeps_version_control_folders(project: Path):
    assert run("convert", "src", "-o", "out").exit_code == 0
    (project / "out" / ".git").mkdir()
    (project / "out" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    result = run("convert", "src", "-o", "out", "--force", "--prune")
    assert result.exit_code == 0 and (project / "out" / ".git" / "HEAD").exists()


def test_a_long_list_points_to_the_summaries(tmp_path: Path):
    body = "".join(f"  out[{i}] = threadIdx.x % 32;\n" for i in range(201))
    (tmp_path / "k.cu").write_text(f"__global__ void k(int* out) {{\n{body}}}\n")
    result = run("convert", str(tmp_path / "k.cu"))
    assert "201 findings in 1 file: `--statistics` counts them per code, `hipport report` " \
        "ranks what to do first." in result.stderr
    short = run("convert", str(tmp_path / "k.cu"), "--statistics")
    assert "`--statistics` counts them" not in short.stderr
