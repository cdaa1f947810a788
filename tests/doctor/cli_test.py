"""`hipport doctor` end to end: real layouts, this machine's installation,
exit codes and the JSON schema."""
import json
import time
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.doctor import System, diagnose
from hipport.doctor.system import Output
from tests.doctor.roots import WITHOUT_TOOLCHAIN, suite_root
from tests.doctor.trees import BLAS_FFT_HIP, COMPUTE_32F, CUBLASLT, HIPBLASLT, tree
from tests.toolchain import REPO_ROOT, require_hip_oracle, require_hipcc

SCHEMA = json.loads((REPO_ROOT / "docs" / "doctor.schema.json").read_text())


@pytest.fixture
def doctor(monkeypatch):
    def run(*args, **env):
        monkeypatch.delenv("HIP_PLATFORM", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        return CliRunner().invoke(cli, ["doctor", *map(str, args)], catch_exceptions=False)
    return run


def _json(result):
    data = json.loads(result.output)
    jsonschema.validate(data, SCHEMA)
    return data


def test_tree_needing_hipblaslt_on_a_root_without_it(tmp_path, doctor):
    # Debian 12's layout, with the machine's clang-15 for its hipcc.
    src = tree(tmp_path, **{"gemm.cu": CUBLASLT})
    result = doctor(src, "--root", suite_root("bookworm"), HIP_CLANG_PATH="/usr/bin")
    assert result.exit_code == 1, result.output
    assert "✗ hipBLASLt" in result.output
    # The package is named; on a Debian 12 machine the hint also says that
    # only Debian unstable has it so far.
    assert "libhipblaslt-dev" in next(line for line in result.output.splitlines()
                                      if "→" in line and "hipblaslt" in line)
    assert "Missing: hipBLASLt (libhipblaslt-dev)." in result.output
    data = _json(doctor(src, "--root", suite_root("bookworm"), "--format", "json",
                        HIP_CLANG_PATH="/usr/bin"))
    assert data["exit_code"] == 1 and data["summary"]["failed"] == ["needs-hipblaslt"]


def test_hip_tree_needing_hipblaslt_on_sid_without_its_runtime(tmp_path, doctor):
    src = tree(tmp_path, **{"gemm.hip": HIPBLASLT})
    data = _json(doctor(src, "--root", suite_root("sid"), "--format", "json"))
    [need] = [c for c in data["checks"] if c["id"] == "needs-hipblaslt"]
    assert need["status"] == "missing"
    assert need["detail"].startswith(
        "libhipblaslt.so points to libhipblaslt.so.1, which is missing")
    assert need["advice"].startswith("apt install libhipblaslt1")
    assert data["summary"]["failed"] == ["needs-hipblaslt"]


def test_everything_there(tmp_path, doctor):
    src = tree(tmp_path, **{"run.cpp": BLAS_FFT_HIP})
    result = doctor(src, "--root", suite_root("sid"))
    assert result.exit_code == 0, result.output
    assert "Everything the tree needs is there." in result.output
    assert "✓ hipBLAS" in result.output and "✓ hipFFT" in result.output


def test_too_old(tmp_path, doctor):
    # Debian 13's hipBLAS is ROCm 5.5.1's; HIPBLAS_COMPUTE_32F is first in the 6.4 headers
    # hipport verifies (the catalogue's ranges come from header evidence).
    src = tree(tmp_path, **{"t.cu": COMPUTE_32F})
    data = _json(doctor(src, "--root", suite_root("trixie"), "--format", "json"))
    [need] = [c for c in data["checks"] if c["id"] == "needs-hipblas"]
    assert need["status"] == "too-old" and need["required"]
    assert "hipBLAS of ROCm 5.5.1" in need["detail"] and "needs 6.4" in need["detail"]
    assert "needs-hipblas" in data["summary"]["failed"]


def test_this_machine(doctor):
    """Debian 12: ROCm 5.2 from Debian in /usr, no GPU, nvcc installed (the
    ROCm 6.4 toolchain, looked at first, out of sight)."""
    require_hipcc()
    result = doctor(**WITHOUT_TOOLCHAIN)
    assert result.exit_code == 0, result.output
    assert "ROCm 5.2 at /usr" in result.output.splitlines()[0]
    assert "! HIP platform" in result.output and "nvidia, chosen by hipcc" in result.output
    assert "→ export HIP_PLATFORM=amd" in result.output
    data = _json(doctor("--format", "json", **WITHOUT_TOOLCHAIN))
    assert data["rocm"] == {"root": "/usr", "version": "5.2"}
    assert {c["id"] for c in data["checks"]} >= {"rocm-root", "hipcc", "hip-platform",
                                               "hip-clang", "library-hipblas", "kfd", "torch"}


def test_this_machine_with_the_toolchain(doctor):
    """Issue 26: with hipport's ROCm toolchain set up, doctor (as verify)
    looks at it first, its newest ROCm (7.2, issue 33) before its 6.4, and
    finds the libraries it installed."""
    oracle = require_hip_oracle("rocm-7.2")
    require_hip_oracle("rocm-6.4")
    result = doctor(REPO_ROOT / "examples", ROCM_PATH="")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].endswith(f"ROCm 7.2 at {oracle.sysroot / 'usr'}")
    assert "hipport's default target (--rocm-version 7.2) fits it" in result.output
    hipcc = next(line for line in result.output.splitlines() if "hipcc  " in line)
    assert hipcc.startswith("  ✓ hipcc") and f"{oracle.hipcc} (HIP 7.2." in hipcc
    assert hipcc.endswith("chosen: hipport's ROCm toolchain (scripts/bootstrap.sh --toolchain), "
                          "looked at first")
    assert "✓ Clang behind hipcc" in result.output and "✓ hipBLAS" in result.output
    assert "✓ hipFFT" in result.output and "Everything the tree needs is there." in result.output
    # what the toolchain has as headers only by design is no problem of the machine
    assert result.output.splitlines()[-1].startswith("0 problems"), result.output


def test_this_machine_against_the_examples(doctor):
    require_hipcc()
    if Path("/usr/include/hipblas/hipblas.h").exists():
        pytest.skip("hipBLAS is installed here")
    result = doctor(REPO_ROOT / "examples", **WITHOUT_TOOLCHAIN)  # Debian 12's HIP 5.2
    assert result.exit_code == 1
    assert "libhipblas-dev" in result.output and "libhipfft-dev" in result.output


@pytest.mark.parametrize("args", [
    ["/nonexistent/tree"],
    ["--format", "yaml"],
    ["--root", "/nonexistent/rocm"],
])
def test_usage_errors_exit_2(doctor, args):
    assert doctor(*args).exit_code == 2


def test_json_of_an_empty_machine(tmp_path):
    system = System(env={"PATH": str(tmp_path)}, fs_root=tmp_path)
    diagnosis = diagnose(system, frameworks=False)
    from hipport.doctor.render import as_json

    data = as_json(diagnosis)
    jsonschema.validate(data, SCHEMA)
    assert data["rocm"] == {"root": None, "version": None}
    assert data["exit_code"] == 1 and "rocm-root" in data["summary"]["failed"]


def test_own_work_is_fast(tmp_path):
    """With every external command answering at once, a whole run against a
    real root takes well under a second (the tools' own time comes on top)."""
    def instant(argv, env, timeout):
        return Output(1, "", "", "")

    system = System(env={"PATH": "/usr/bin:/bin"}, run=instant)
    start = time.monotonic()
    diagnose(system, suite_root("sid"))
    assert time.monotonic() - start < 1.0
