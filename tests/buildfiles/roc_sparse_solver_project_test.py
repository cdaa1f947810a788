"""`--roc` (issue 34): a CMake project using cuSPARSE and cuSOLVER
(tests/buildfiles/projects/roc_sparse_solver), converted to rocSPARSE and
rocSOLVER themselves, compiles with ROCm 6.4's and 7.2's hipcc and configures
and builds with each one's CMake (objects only where the chroot lacks a
library's shared object, as tests/buildfiles/roc_project_test.py explains)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, executables, tail
from tests.ci import missing
from tests.toolchain import HipOracle, compile_hip, require_hip_oracle

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "projects" / "roc_sparse_solver"
ORACLES = {"rocm-6.4": (6, 4), "rocm-7.2": (7, 2)}  # rocSOLVER's targets are 6.4 and later


def _converted(tmp_path: Path, oracle_name: str) -> tuple[Path, HipOracle]:
    oracle = require_hip_oracle(oracle_name)
    source = tmp_path / "src"
    findings = convert_project(PROJECT, source, oracle, ORACLES[oracle_name], roc=True)
    lists = (source / "CMakeLists.txt").read_text()
    assert "roc::rocsparse" in lists and "roc::rocsolver" in lists and "hipsparse" not in lists
    solver = (source / "solver.cu").read_text()
    assert "rocsolver_spotrf(handle, rocblas_fill_lower, n, A, n, info);" in solver
    assert "rocsolver_sgetrs(handle, rocblas_operation_none, n, 1, A, n, ipiv, B, n);" in solver
    assert "rocsparse_csrsort(handle, m, n, nnz, descr" in (source / "sparse.cu").read_text()
    assert not [f for f in findings if f.code.startswith("HP9")], findings
    return source, oracle


@pytest.mark.parametrize("oracle_name", ORACLES)
@pytest.mark.parametrize("name", ["sparse", "solver"])
def test_converted_program_compiles(name: str, oracle_name: str, tmp_path: Path):
    source, oracle = _converted(tmp_path, oracle_name)
    text = (source / f"{name}.cu").read_text()
    left = re.findall(r"\b(?:cusparse|cusolver|CUSPARSE_|CUSOLVER_|CUBLAS_|cuda)\w*", text)
    assert not left, left
    unit = tmp_path / f"{name}.hip.cpp"
    unit.write_text(text)
    proc = compile_hip(unit, oracle=oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("oracle_name", ORACLES)
def test_converted_project_configures_and_builds(oracle_name: str, tmp_path: Path):
    source, oracle = _converted(tmp_path, oracle_name)
    for tool in ("cmake", "make"):
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle_name}")
    build = cmake_build(oracle, source, tmp_path)
    print(f"\n[{oracle_name}] {build.command} {' '.join(build.objects_only)}:\n"
          f"{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    if build.objects_only:
        built = {p.name for p in (tmp_path / "build").rglob("*.o")}
        assert {"sparse.cu.o", "solver.cu.o"} <= built, built
    else:
        assert executables(tmp_path / "build") == {"sparse_demo", "solver_demo"}
