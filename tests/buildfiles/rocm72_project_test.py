"""Issue 33's "done when" project (tests/buildfiles/projects/blas_warps):
cuBLAS routines whose hipBLAS names hipBLAS 3 changed (`cublasCgemm`,
`cublasGemmEx`, `cublasDotEx`, `cublasDznrm2` are `hipblas*_v2` on ROCm 6.x
and plain names taking `hipDataType`/`hipComplex` on 7.x), the warp
intrinsics ROCm 7 declares itself (`__syncwarp`, `__reduce_add_sync`,
`__match_any_sync`) or whose mask hipport drops (`__shfl_xor_sync`), and
`cudaLaunchKernelEx` (a HIP counterpart from 7.2 on).  Converted with the
default target it configures and builds with ROCm 7.2's CMake; converted
with ``--rocm-version 6.4``, without the launch-ex executable (6.4 has no
hipLaunchKernelEx), it builds with 6.4's."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hipport.table.versions import DEFAULT_TARGET
from tests.buildfiles.building import cmake_build, convert_project, executables, tail
from tests.ci import missing
from tests.toolchain import require_hip_oracle

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parent / "projects" / "blas_warps"
# Each part of the project: its executable's lines in CMakeLists.txt, its source.
PARTS = {
    "blas_demo": ("add_executable(blas_demo blas.cu)\n"
                  "target_link_libraries(blas_demo PRIVATE CUDA::cublas)\n", "blas.cu"),
    "warp_demo": ("add_executable(warp_demo warps.cu)\n# __reduce_add_sync needs sm_80\n"
                  "set_target_properties(warp_demo PROPERTIES CUDA_ARCHITECTURES 80)\n",
                  "warps.cu"),
    "launch_ex": ("add_executable(launch_ex launch_ex.cu)\n", "launch_ex.cu"),
}


def _project(dest: Path, parts: set[str]) -> Path:
    """A copy of the project with only ``parts``."""
    shutil.copytree(PROJECT, dest)
    lists = dest / "CMakeLists.txt"
    text = lists.read_text()
    for name, (lines, source) in PARTS.items():
        assert lines in text, name
        if name not in parts:
            text = text.replace(lines, "")
            (dest / source).unlink()
    lists.write_text(text)
    return dest


@pytest.mark.parametrize(("oracle_name", "rocm_version", "parts"), [
    # the default target, the whole project (the warp part: issue 33 §3, tests/oracle_gaps.py)
    pytest.param("rocm-7.2", None, set(PARTS), id="rocm-7.2-default"),
    # the parts the polyfill header plays no part in
    pytest.param("rocm-7.2", None, {"blas_demo", "launch_ex"}, id="rocm-7.2-default-no-warps"),
    # 6.4 has no hipLaunchKernelEx
    pytest.param("rocm-6.4", (6, 4), {"blas_demo", "warp_demo"}, id="rocm-6.4"),
])
def test_the_issue_33_project_builds(oracle_name: str, rocm_version: tuple[int, ...] | None,
                                     parts: set[str], tmp_path: Path):
    oracle = require_hip_oracle(oracle_name)
    for tool in ("cmake", "make"):
        if not oracle.has_tool(tool):
            missing(f"{tool} not found for {oracle.name}")
    source = tmp_path / "src"
    # None: Settings' default, the default target (convert_project's None is no target)
    convert_project(_project(tmp_path / "cuda", parts), source, oracle,
                    rocm_version or DEFAULT_TARGET)
    blas = (source / "blas.cu").read_text()
    if rocm_version is None:  # the default target: hipBLAS 3's plain names
        assert DEFAULT_TARGET == (7, 2)
        assert "hipblasCgemm(" in blas and "hipblasGemmEx(" in blas and "_v2(" not in blas
        assert "hipLaunchKernelEx(&config" in (source / "launch_ex.cu").read_text()
    else:
        assert "hipblasCgemm_v2(" in blas and "hipblasDznrm2_v2(" in blas
    build = cmake_build(oracle, source, tmp_path)
    print(f"\n[{oracle.name}] {build.command}:\n{tail(build.proc)}")
    assert build.proc.returncode == 0, tail(build.proc, 40)
    assert executables(tmp_path / "build") == parts
