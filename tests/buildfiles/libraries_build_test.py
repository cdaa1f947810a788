"""The ROCm libraries a converted project finds with CMake, found and linked
in each chroot oracle (issue 33: the chroots unpacked the -dev packages
without the runtime libraries their CMake files name, so
``find_package(hipblaslt)`` and ``find_package(rocblas)`` stopped at
configure, "The imported target roc::hipblaslt references the file
.../libhipblaslt.so.1.2 but this file does not exist", and with them four
cuSOLVER samples of the corpus).  One executable calls a function of each
library, so the link checks each symbol against the real shared object."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.buildfiles.building import cmake_build, executables, tail
from tests.toolchain import require_hip_oracle

pytestmark = pytest.mark.slow

# package -> (its target, its header, a call into the library)
LIBRARIES = {
    "hipsolver": ("roc::hipsolver", "hipsolver/hipsolver.h",
                  "hipsolverHandle_t h; ok &= hipsolverCreate(&h) == HIPSOLVER_STATUS_SUCCESS;"),
    "hipblaslt": ("roc::hipblaslt", "hipblaslt/hipblaslt.h",
                  "hipblasLtHandle_t h; ok &= hipblasLtCreate(&h) == HIPBLAS_STATUS_SUCCESS;"),
    "rocblas": ("roc::rocblas", "rocblas/rocblas.h",
                "rocblas_handle h; ok &= rocblas_create_handle(&h) == rocblas_status_success;"),
    "hipfft": ("hip::hipfft", "hipfft/hipfft.h",
               "hipfftHandle h; ok &= hipfftCreate(&h) == HIPFFT_SUCCESS;"),
    "hiprand": ("hip::hiprand", "hiprand/hiprand.h",
                "hiprandGenerator_t h;"
                " ok &= hiprandCreateGenerator(&h, HIPRAND_RNG_PSEUDO_DEFAULT)"
                " == HIPRAND_STATUS_SUCCESS;"),
    "hipsparse": ("roc::hipsparse", "hipsparse/hipsparse.h",
                  "hipsparseHandle_t h; ok &= hipsparseCreate(&h) == HIPSPARSE_STATUS_SUCCESS;"),
}


def _project(directory: Path) -> Path:
    directory.mkdir()
    finds = "".join(f"find_package({package} REQUIRED)\n" for package in LIBRARIES)
    targets = " ".join(target for target, _, _ in LIBRARIES.values())
    (directory / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\n"
        "project(libraries LANGUAGES CXX HIP)\n" + finds +
        "add_executable(libraries main.hip)\n"
        f"target_link_libraries(libraries PRIVATE {targets})\n")
    includes = "".join(f"#include <{header}>\n" for _, header, _ in LIBRARIES.values())
    calls = "".join(f"  {{ {call} }}\n" for _, _, call in LIBRARIES.values())
    (directory / "main.hip").write_text(
        "#include <hip/hip_runtime.h>\n" + includes +
        "__global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n"
        "int main() {\n"
        "  bool ok = true;\n" + calls +
        "  float* x = nullptr;\n"
        "  ok &= hipMalloc(&x, 64 * sizeof(float)) == hipSuccess;\n"
        "  twice<<<1, 64>>>(x);\n"
        "  return ok ? 0 : 1;\n"
        "}\n")
    return directory


def _first_error(output: str) -> str:
    """The first error of a CMake or compiler run and the lines after it."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if "Error" in line or "error:" in line), 0)
    return "\n".join(lines[start:start + 8])


@pytest.mark.parametrize("oracle_name", ["rocm-6.4", "rocm-7.2"])
def test_every_library_is_found_and_linked(oracle_name: str, tmp_path: Path):
    oracle = require_hip_oracle(oracle_name)
    build = cmake_build(oracle, _project(tmp_path / "project"), tmp_path)
    output = build.proc.stdout + build.proc.stderr
    assert build.proc.returncode == 0, f"{build.command}\n{_first_error(output)}"
    assert not build.objects_only, build.objects_only
    assert "libraries" in executables(tmp_path / "build"), tail(build.proc)
