"""`hipport check` end to end through the CLI (in-process; no pre-commit)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hipport.cli import cli

CLUSTERS = b"""#include <cuda_runtime.h>
__global__ void kernel(float* out) { out[threadIdx.x] = 1.0f; }
void launch(float* d) {
  kernel<<<1, 32>>>(d);
  int n = 0;
  cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);
}
"""
HIP_FILE = b"""#include <hip/hip_runtime.h>
// this used to call cudaMalloc; now it is HIP
void alloc(float** p) {
  hipMalloc(p, 64);
  const char* name = "cudaMalloc";
}
"""
SCHEMA = Path(__file__).resolve().parent.parent / "report" / "sarif-schema-2.1.0.json"


def run(*args: str):
    return CliRunner().invoke(cli, ["check", *args], catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_bytes(CLUSTERS)
    (tmp_path / "src" / "hip.cpp").write_bytes(HIP_FILE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_violation_is_reported_with_location_and_exit_1(project: Path):
    result = run("src/k.cu")
    assert result.exit_code == 1
    assert result.stdout == ("src/k.cu:6:3: HP901 `cudaOccupancyMaxActiveClusters` has no HIP "
                             "equivalent: no HIP equivalent known\n")
    assert "1 new violation in 1 file (policy no-unmapped)" in result.stderr
    assert "// hipport: ignore[HP901]" in result.stderr


def test_convertible_cuda_passes_no_unmapped(project: Path):
    (project / "src" / "ok.cu").write_bytes(b"void f(float** p) { cudaMalloc(p, 4); }\n")
    result = run("src/ok.cu", "src/hip.cpp")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert "no new violations in 2 files" in result.stderr


def test_hip_only_refuses_cuda_but_not_lookalikes(project: Path):
    (project / "src" / "new.cpp").write_bytes(HIP_FILE.replace(
        b"hipMalloc(p, 64);", b"hipMalloc(p, 64);\n  cudaMalloc(p, 64);"))
    result = run("--policy", "hip-only", "src/hip.cpp", "src/new.cpp")
    assert result.exit_code == 1
    assert result.stdout == "src/new.cpp:5:3: HP101 [*] `cudaMalloc` -> `hipMalloc`\n"
    assert "hipport convert --in-place src/new.cpp" in result.stderr


def test_error_hazards_fail_by_default(project: Path):
    (project / "src" / "dp.cu").write_bytes(
        b"__global__ void child(int* p) { p[0] = 1; }\n"
        b"__global__ void parent(int* p) {\n  child<<<1, 1>>>(p);\n}\n")
    result = run("src/dp.cu")
    assert result.exit_code == 1 and result.stdout.startswith("src/dp.cu:3:3: HP502 ")
    assert run("--ignore", "HP502", "src/dp.cu").exit_code == 0


@pytest.mark.parametrize("edit", [
    b"cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);  // hipport: ignore[HP901]",
    b"// hipport: ignore[HP901]\n  cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);",
    b"cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);  // hipport: ignore",
    b"/* hipport: ignore[HP101, HP901] */ cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);",
])
def test_suppressed_line_passes(project: Path, edit: bytes):
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS.replace(
        b"cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);", edit))
    result = run("src/k.cu")
    assert result.exit_code == 0, result.output


def test_suppression_of_another_code_does_not_hide(project: Path):
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS.replace(b"nullptr);", b"nullptr);  // hipport: ignore[HP101]"))
    assert run("src/k.cu").exit_code == 1


def test_unused_suppressions_are_reported_on_request(project: Path):
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS.replace(b"int n = 0;", b"int n = 0;  // hipport: ignore[HP901]")
                     .replace(b"nullptr);", b"nullptr);  // hipport: ignore[HP901]"))
    assert run("src/k.cu").exit_code == 0
    result = run("--report-unused-suppressions", "src/k.cu")
    assert result.exit_code == 1
    assert result.stdout == ("src/k.cu:5:15: unused-suppression unused suppression: no HP901 "
                             "finding on this line; remove it\n")


def test_baseline_round_trip(project: Path):
    result = run("--write-baseline", "src")
    assert result.exit_code == 0, result.output
    assert "wrote .hipport-baseline.json: 1 known violation" in result.stderr
    data = json.loads((project / ".hipport-baseline.json").read_text())
    assert [e["api"] for e in data["findings"]] == ["cudaOccupancyMaxActiveClusters"]
    result = run("src/k.cu")
    assert result.exit_code == 0 and "1 known in .hipport-baseline.json" in result.stderr
    assert run("--no-baseline", "src/k.cu").exit_code == 1
    path = project / "src" / "k.cu"
    path.write_bytes(b"// moved down\n" + CLUSTERS
                     + b"void more() {\n  cudaGraphAddNode_v2(0, 0, 0, 0, 0);\n}\n")
    result = run("src/k.cu")
    assert result.exit_code == 1
    assert result.stdout.startswith("src/k.cu:10:3: HP901 `cudaGraphAddNode_v2`")


def test_config_sets_policy_and_flags_override(project: Path):
    (project / "pyproject.toml").write_text('[tool.hipport.check]\npolicy = "hip-only"\n')
    (project / "src" / "ok.cu").write_bytes(b"void f(float** p) { cudaMalloc(p, 4); }\n")
    assert run("src/ok.cu").exit_code == 1
    assert run("--policy", "no-unmapped", "src/ok.cu").exit_code == 0
    assert run("--fail-on", "HP9", "src/ok.cu").exit_code == 0


def test_json_output(project: Path):
    result = run("--output-format", "json", "src/k.cu")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    [item] = data["violations"]
    assert item["code"] == "HP901" and item["line"] == 6 and item["column"] == 3
    assert item["name"] == "unsupported-cuda-api" and item["path"] == "src/k.cu"
    assert item["api"] == "cudaOccupancyMaxActiveClusters"
    assert item["fingerprint"].startswith("cudaOccupancyMaxActiveClusters:")


def test_sarif_output_is_valid(project: Path):
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS.replace(b"int n = 0;", b"int n = 0;  // hipport: ignore"))
    result = run("--output-format", "sarif", "--report-unused-suppressions", "src/k.cu")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    jsonschema.validate(document, json.loads(SCHEMA.read_text()))
    results = document["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"HP901", "unused-suppression"}
    hp901 = next(r for r in results if r["ruleId"] == "HP901")
    assert hp901["locations"][0]["physicalLocation"]["region"]["startLine"] == 6
    assert "partialFingerprints" in hp901


def test_github_annotations(project: Path):
    # The annotation's level is the code's severity, as `hipport explain` and
    # SARIF give it (HP901 is a warning); failing is the policy's decision,
    # said by the exit code and the summary (issue 19, item 9).
    result = run("--output-format", "github", "src/k.cu")
    assert result.exit_code == 1
    assert result.stdout == (
        "::warning file=src/k.cu,line=6,col=3,endLine=6,endColumn=33,"
        "title=hipport HP901 (unsupported-cuda-api)::`cudaOccupancyMaxActiveClusters` has no "
        "HIP equivalent%3A no HIP equivalent known\n".replace("%3A", ":"))


@pytest.mark.parametrize("args, message", [
    ((), "name the FILES to check"),
    (("--staged", "--diff-base", "main", "src"), "exclude each other"),
    (("--write-baseline", "--staged"), "cannot be combined"),
    (("--fail-on", "E501", "src"), "'E501' is not a code"),
    (("src/missing.cu",), "no such file or directory"),
    (("--staged",), "not inside a git repository"),
])
def test_usage_errors_exit_2(project: Path, args: tuple[str, ...], message: str):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.stderr


def test_config_error_exits_2_naming_file_and_key(project: Path):
    (project / ".hipport.toml").write_text('[check]\npolicy = "strict"\n')
    result = run("src/k.cu")
    assert result.exit_code == 2
    assert ".hipport.toml: check.policy: expected one of" in result.stderr


def test_bad_baseline_exits_2(project: Path):
    (project / ".hipport-baseline.json").write_text("{oops")
    result = run("src/k.cu")
    assert result.exit_code == 2 and "malformed baseline JSON" in result.stderr


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_staged_counts_only_added_lines_of_the_index(project: Path):
    git(project, "init", "-q")
    git(project, "config", "user.email", "test@example.com")
    git(project, "config", "user.name", "Test")
    git(project, "add", ".")
    git(project, "commit", "-qm", "init")
    path = project / "src" / "k.cu"
    # Debt on an old line, a staged edit elsewhere: passes without any baseline.
    path.write_bytes(CLUSTERS.replace(b"int n = 0;", b"int n = 1;"))
    git(project, "add", ".")
    result = run("--staged")
    assert result.exit_code == 0, result.output
    assert "1 elsewhere not counted" in result.stderr
    # A staged new call fails, even when the working copy has already dropped it.
    staged = CLUSTERS + b"void g() { cudaGraphAddNode_v2(0, 0, 0, 0, 0); }\n"
    path.write_bytes(staged)
    git(project, "add", ".")
    path.write_bytes(CLUSTERS)
    result = run("--staged")
    assert result.exit_code == 1
    assert result.stdout.startswith("src/k.cu:8:12: HP901 `cudaGraphAddNode_v2`")
    assert path.read_bytes() == CLUSTERS  # nothing written
    # Nothing staged: nothing to check.
    git(project, "reset", "-q")
    assert run("--staged").exit_code == 0


def test_diff_base(project: Path):
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "test@example.com")
    git(project, "config", "user.name", "Test")
    git(project, "add", ".")
    git(project, "commit", "-qm", "init")
    git(project, "checkout", "-qb", "topic")
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS + b"void g() { cudaGraphAddNode_v2(0, 0, 0, 0, 0); }\n")
    git(project, "commit", "-qam", "work")
    result = run("--diff-base", "main", "--output-format", "github")
    assert result.exit_code == 1
    assert result.stdout.count("::warning") == 1 and "line=8" in result.stdout
    assert run("--diff-base", "HEAD").exit_code == 0


def test_write_baseline_refuses_a_damaged_one_until_it_is_deleted(project: Path):
    # Rewriting it would silently drop the entries of files not checked now
    # (issue 14, item 9; more in tests/safety/outputs_test.py).
    damaged = project / ".hipport-baseline.json"
    damaged.write_text("{oops")
    result = run("--write-baseline", "src")
    assert result.exit_code == 2 and "delete the file" in result.stderr
    assert damaged.read_text() == "{oops"
    damaged.unlink()
    assert run("--write-baseline", "src").exit_code == 0
    assert run("src").exit_code == 0


# Issue 19, item 9: a first adoption is told how to record existing debt;
# statistics, fix markers and hints as convert has them.

def test_first_adoption_suggests_the_baseline(project: Path):
    result = run("src/k.cu")
    assert result.exit_code == 1
    assert "`hipport check --write-baseline` records today's violations as known debt" \
        in result.stderr
    assert run("--write-baseline", "src").exit_code == 0
    (project / "src" / "k.cu").write_bytes(
        CLUSTERS + b"void g() { cudaGraphAddNode_v2(0, 0, 0, 0, 0); }\n")
    later = run("src/k.cu")
    assert later.exit_code == 1 and "--write-baseline` records" not in later.stderr
    assert "--write-baseline` records" not in run("--no-baseline", "src/k.cu").stderr


def test_statistics(project: Path):
    (project / "src" / "new.cpp").write_bytes(b"void f(float** p) { cudaMalloc(p, 4); "
                                              b"cudaFree(*p); cudaMalloc(p, 8); }\n")
    result = run("--policy", "hip-only", "--statistics", "src/new.cpp")
    assert result.exit_code == 1
    assert result.stdout.split("\n")[0].split() == ["3", "HP101", "[*]", "runtime-api"]
    assert "[*] 3 fixable: `hipport convert --in-place src/new.cpp`" in result.stderr
    as_json = json.loads(run("--policy", "hip-only", "--statistics", "--output-format", "json",
                             "src/new.cpp").stdout)
    assert as_json == [{"code": "HP101", "name": "runtime-api", "severity": "info",
                        "count": 3, "fixable_count": 3}]


def test_unsafe_fixes_are_counted_apart(project: Path):
    (project / "src" / "arch.cu").write_bytes(b"#ifdef __CUDA_ARCH__\nint x;\n#endif\n")
    result = run("--policy", "hip-only", "src/arch.cu")
    assert result.exit_code == 1
    assert result.stdout.startswith("src/arch.cu:1:8: HP904 [*] `__CUDA_ARCH__`")
    assert "[*] 1 more with `hipport convert --unsafe-fixes`" in result.stderr


def test_the_fix_hint_quotes_names_a_shell_would_split(project: Path):
    # Before: `hipport convert --in-place src/my kernel.cu`, two arguments once pasted.
    (project / "src" / "my kernel.cpp").write_bytes(b"void f(void** p) { cudaMalloc(p, 4); }\n")
    result = run("--policy", "hip-only", "src/my kernel.cpp")
    assert result.exit_code == 1
    assert "`hipport convert --in-place 'src/my kernel.cpp'`" in result.stderr, result.stderr


def test_an_api_the_polyfill_header_emulates_passes(project: Path):
    """No HIP equivalent, but emulated exactly by hipport_polyfills.h: not
    a blocker; with --polyfills none it is one again."""
    path = project / "src" / "k.cu"
    path.write_bytes(CLUSTERS.replace(b"cudaOccupancyMaxActiveClusters(&n, kernel, nullptr);",
                                      b"cudaCtxResetPersistingL2Cache();"))
    assert run("--no-baseline", "src/k.cu").exit_code == 0
    result = run("--no-baseline", "--polyfills", "none", "src/k.cu")
    assert result.exit_code == 1 and "HP901 `cudaCtxResetPersistingL2Cache`" in result.stdout
