"""Small source trees for the doctor tests."""
from __future__ import annotations

from pathlib import Path

CUBLASLT = """\
#include <cublasLt.h>

void make_handle() {
    cublasLtHandle_t handle;
    cublasLtCreate(&handle);
}
"""

HIPBLASLT = """\
#include <hipblaslt/hipblaslt.h>

void make_handle() {
    hipblasLtHandle_t handle;
    hipblasLtCreate(&handle);
}
"""

BLAS_FFT_HIP = """\
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipfft/hipfft.h>

void run(hipblasHandle_t h, hipfftHandle plan) {
    hipblasCreate(&h);
    hipfftPlan1d(&plan, 256, HIPFFT_C2C, 1);
}
"""

COMPUTE_32F = """\
#include <cublas_v2.h>

cublasComputeType_t type() { return CUBLAS_COMPUTE_32F; }
"""

GUARDED = """\
#include <cuda_runtime.h>

unsigned long long flags() {
#if defined(__NVCC__) && CUDART_VERSION >= 11070
    return cudaGraphInstantiateFlagUseNodePriority;
#else
    return 0;
#endif
}
"""


def tree(tmp_path: Path, **files: str) -> Path:
    root = tmp_path / "tree"
    for name, text in files.items():
        path = root / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
