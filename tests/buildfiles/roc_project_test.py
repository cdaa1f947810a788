"""`--roc` (issue 34): a CMake project using cuBLAS and cuRAND, host and
device API (tests/buildfiles/projects/roc_libraries), converted to rocBLAS
and rocRAND themselves, compiles with each ROCm's hipcc and configures and
builds with its CMake.  Both chroots ship librocblas.so as a symlink to a
shared object they lack (a -dev package without its runtime): the build is
then of the objects (tests/buildfiles/building.py), the link left out."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, convert_project, executables, tail
from tests.ci import missing
from tests.toolchain import compile_hip, require_hip_oracle

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "projects" / "roc_libraries"
ORACLES = {"rocm-6.4": (6, 4), "rocm-7.2": (7, 2)}  # rocBLAS's targets are 6.4 and later
EXECUTABLES = {"blas_demo", "rand_host", "rand_device"}


def _converted(tmp_path: Path, oracle_name: str) -> tuple[Path, object]:
    oracle = require_hip_oracle(oracle_name)
    source = tmp_path / "src"
    findings = convert_project(PROJECT, source, oracle, ORACLES[oracle_name], roc=True)
    lists = (source / "CMakeLists.txt").read_text()
    assert "roc::rocblas" in lists and "roc::rocrand" in lists and "hipblas" not in lists
    assert "find_package(rocblas REQUIRED)" in lists and "find_package(rocrand REQUIRED)" in lists
    blas = (source / "blas.cu").read_text()
    assert "rocblas_sgemm(handle, rocblas_operation_none, rocblas_operation_transpose" in blas
    assert "rocblas_cgemm(handle, rocblas_operation_none, " \
        "rocblas_operation_conjugate_transpose" in blas
    assert blas.index("#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX") < blas.index("<rocblas/")
    assert "rocrand_create_generator(&gen, ROCRAND_RNG_PSEUDO_PHILOX4_32_10)" in \
        (source / "rand_host.cu").read_text()
    assert "rocrand_init(seed, id, 0, &states[id])" in (source / "rand_device.cu").read_text()
    assert not [f for f in findings if f.code.startswith("HP9")], findings
    return source, oracle


@pytest.mark.parametrize("oracle_name", ORACLES)
@pytest.mark.parametrize("name", ["blas", "rand_host", "rand_device"])
def test_converted_program_compiles(name: str, oracle_name: str, tmp_path: Path):
    source, oracle = _converted(tmp_path, oracle_name)
    text = (source / f"{name}.cu").read_text()
    left = re.findall(r"\b(?:cublas|curand|CUBLAS_|CURAND_|cuda)\w*", text)
    assert not left, left
    unit = tmp_path / f"{name}.hip.cpp"
    unit.write_text(text)
    proc = compile_hip(unit, oracle=oracle)  # type: ignore[arg-type]
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("oracle_name", ORACLES)
def test_converted_project_configures_and_builds(oracle_name: str, tmp_path: Path):
    source, oracle = _converted(tmp_path, oracle_name)
    for tool in ("cmake", "make"):
        if not oracle.has_tool(tool):  # type: ignore[attr-defined]
            missing(f"{tool} not found for {oracle_name}")
    build = cmake_build(oracle, source, tmp_path)  # type: ignore[arg-type]
    print(f"\n[{oracle_name}] {build.command} {' '.join(build.objects_only)}:\n"
          f"{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    if build.objects_only:  # no shared object to link (see the module's docstring)
        built = {p.name for p in (tmp_path / "build").rglob("*.o")}
        assert {"blas.cu.o", "rand_host.cu.o", "rand_device.cu.o"} <= built, built
    else:
        assert executables(tmp_path / "build") == EXECUTABLES
