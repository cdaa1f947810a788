"""`hipport report --verify`: the tree converted into a scratch folder,
built, and billed from the errors the build left (hipport/built.py: the
tree's projects built with their own build files, `hipport verify --build`;
without a build file, each unit compiled)."""
from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.toolchain import ORACLE_NAMES, require_hip_oracle, toolchain_cache
from tests.trees import write_tree
from tests.verify.cli_test import FAKE_HIPCC

TREE = {
    # BROKEN stands for code the compiler rejects (the fake hipcc fails on it).
    "bad.cu": "void f() {\n  cudaInitDevice(0, 0, 0);\n  int BROKEN = 1;\n}\n",
    "ok.cu": "void g() { cudaInitDevice(0, 0, 0); }\n",
}


def report_json(tree: Path, *args: str) -> dict:
    result = CliRunner().invoke(cli, ["report", str(tree), "--verify", "-f", "json", "-q",
                                      "-j", "1", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def hipcc(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "bin" / "hipcc"
    path.parent.mkdir()
    path.write_text(FAKE_HIPCC)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("HIPCC", str(path))
    monkeypatch.delenv("FAKE_LOG", raising=False)
    return path


def test_the_errors_left_are_billed_by_cause(tmp_path: Path, hipcc: Path):
    tree = write_tree(tmp_path / "src", TREE)
    before = {p.name: p.read_bytes() for p in tree.iterdir()}
    data = report_json(tree)
    effort = data["effort"]
    assert effort["basis"] == "built"
    assert "1 of 2 translation units compile with hipcc" in effort["basis_detail"]
    lines = {line["item"]: line for line in effort["lines"]}
    error = lines["build error: use of undeclared identifier 'BROKEN'"]
    assert (error["kind"], error["stage"], error["locations"]) == (
        "breaks-build", "compile", ["bad.cu:3"])
    # ok.cu compiled: its use is no blocker; bad.cu's is still to be looked at.
    assert lines["cudaInitDevice: unsupported API"]["locations"] == ["bad.cu:2"]
    assert {p.name: p.read_bytes() for p in tree.iterdir()} == before  # nothing written
    static = json.loads(CliRunner().invoke(cli, ["report", str(tree), "-f", "json", "-q",
                                                 "-j", "1"]).stdout)["effort"]
    assert static["basis"] == "static"
    assert not any(line["item"].startswith("build error") for line in static["lines"])


def test_no_compiler_is_a_usage_error(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HIPCC", str(tmp_path / "nope"))
    tree = write_tree(tmp_path / "src", TREE)
    result = CliRunner().invoke(cli, ["report", str(tree), "--verify", "-q", "-j", "1"])
    assert result.exit_code == 2
    assert "no HIP compiler" in result.stderr and "Traceback" not in result.output


@pytest.mark.slow
def test_a_real_compile_with_each_oracle(tmp_path: Path, hip_oracle, monkeypatch):
    """`__syncwarp()` without its polyfill (`--polyfills none`) is left as it
    is: HIP 5.2 and ROCm 6.4 do not accept it, and the build says so, at the
    line of the converted file; ROCm 7.2 declares it, and nothing is billed."""
    monkeypatch.setenv("HIPCC", hip_oracle.hipcc)
    for key, value in hip_oracle.env:
        monkeypatch.setenv(key, value)
    tree = write_tree(tmp_path / "src", {
        "k.cu": "#include <cuda_runtime.h>\n__global__ void k(int* p) {\n  p[0] = 1;\n"
                "  __syncwarp();\n}\n",
        "fine.cu": "#include <cuda_runtime.h>\n__global__ void f(int* p) { p[0] = 1; }\n"})
    data = report_json(tree, "--timeout", "600", "--polyfills", "none")
    effort = data["effort"]
    declared = hip_oracle.hip_version >= (7, 2)
    compiled = "2 of 2" if declared else "1 of 2"
    assert effort["basis"] == "built" and f"{compiled} translation units" in effort["basis_detail"]
    errors = [line for line in effort["lines"] if line["item"].startswith("build error")]
    assert [line["locations"] for line in errors] == ([] if declared else [["k.cu:4"]]), errors
    # fine.cu compiled; before 7.2 k.cu's missing API is billed through its error.
    assert not [line for line in effort["lines"] if line["item"].startswith("__syncwarp")]


@pytest.mark.slow
def test_a_project_is_built_with_its_own_build_files(tmp_path: Path, monkeypatch):
    """A tree of CMake projects: each converted project is configured and
    built (`verify --build`); the compile error of the one that fails is
    billed at its line, and nothing of the one that builds."""
    require_hip_oracle(ORACLE_NAMES[-1])  # what verify finds: skips (fails under CI) without it
    for name in ("HIPCC", "ROCM_PATH", "HIP_PLATFORM", "MAKEFLAGS", "MAKELEVEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPPORT_TOOLCHAIN_CACHE", str(toolchain_cache()))
    tree = write_tree(tmp_path / "src", {
        "app/CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\n"
                              "project(p LANGUAGES CXX CUDA)\nadd_executable(app main.cu)\n",
        "app/main.cu": "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[0] = 1; }\n"
                   "int main() {\n  int* p;\n  cudaMalloc(&p, 4);\n"
                   "  k<<<1, 1>>>(p);\n  return int(cudaDeviceSynchronize());\n}\n",
        "broken/CMakeLists.txt": "cmake_minimum_required(VERSION 3.18)\n"
                                 "project(q LANGUAGES CXX CUDA)\nadd_executable(q q.cu)\n",
        "broken/q.cu": "#include <cuda_runtime.h>\nint main() {\n  int BROKEN = ;\n}\n"})
    data = report_json(tree, "--timeout", "900")
    effort = data["effort"]
    assert effort["basis"] == "built", effort
    assert "1 of 2 projects build (CMake)" in effort["basis_detail"]
    assert "each project built with its own build files" in effort["basis_detail"]
    errors = [line for line in effort["lines"] if line["item"].startswith("build error")]
    assert [line["locations"] for line in errors] == [["broken/q.cu:3"]], errors
    assert errors[0]["stage"] == "compile"
