"""CUDA libraries as build files name them, and their ROCm counterparts.

Target names are those exported by the ROCm packages' CMake config files
(e.g. ``roc::hipblas`` in hipblas-targets.cmake, ``hip::hipfft`` in
hipfft-targets.cmake, ``hip::host`` in hip-targets.cmake)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RocmLibrary:
    link_name: str  # for -l<name> and bare names in target_link_libraries
    target: str  # CMake imported target
    package: str | None  # find_package name; None: provided by find_package(hip)


_HIP_RUNTIME = RocmLibrary("amdhip64", "hip::host", None)

# CUDA link name (as in -l<name>) -> ROCm library.
BY_LINK_NAME: dict[str, RocmLibrary] = {
    "cudart": _HIP_RUNTIME,
    "cudart_static": _HIP_RUNTIME,
    "cuda": _HIP_RUNTIME,
    "cublas": RocmLibrary("hipblas", "roc::hipblas", "hipblas"),
    "cublas_static": RocmLibrary("hipblas", "roc::hipblas", "hipblas"),
    "cublasLt": RocmLibrary("hipblaslt", "roc::hipblaslt", "hipblaslt"),
    "cublasLt_static": RocmLibrary("hipblaslt", "roc::hipblaslt", "hipblaslt"),
    "cufft": RocmLibrary("hipfft", "hip::hipfft", "hipfft"),
    "cufft_static": RocmLibrary("hipfft", "hip::hipfft", "hipfft"),
    "curand": RocmLibrary("hiprand", "hip::hiprand", "hiprand"),
    "curand_static": RocmLibrary("hiprand", "hip::hiprand", "hiprand"),
    "cusparse": RocmLibrary("hipsparse", "roc::hipsparse", "hipsparse"),
    "cusparse_static": RocmLibrary("hipsparse", "roc::hipsparse", "hipsparse"),
    "cusolver": RocmLibrary("hipsolver", "roc::hipsolver", "hipsolver"),
    "cusolver_static": RocmLibrary("hipsolver", "roc::hipsolver", "hipsolver"),
    "nccl": RocmLibrary("rccl", "roc::rccl", "rccl"),
    "nvrtc": RocmLibrary("hiprtc", "hiprtc::hiprtc", "hiprtc"),
}

# Header-only CUDA libraries: CMake targets only.
_HIPCUB = RocmLibrary("", "hip::hipcub", "hipcub")
_ROCTHRUST = RocmLibrary("", "roc::rocthrust", "rocthrust")

# CMake imported target -> ROCm library.
BY_TARGET: dict[str, RocmLibrary] = {
    **{f"CUDA::{name}": lib for name, lib in BY_LINK_NAME.items()
       if name not in ("cuda", "nccl")},
    "CUDA::cuda_driver": _HIP_RUNTIME,
    "CUB::CUB": _HIPCUB,
    "CCCL::CUB": _HIPCUB,
    "Thrust::Thrust": _ROCTHRUST,
    "CCCL::Thrust": _ROCTHRUST,
}

# Libraries that only existed for nvcc's own machinery: removed, not replaced.
DROPPED_LINK_NAMES = frozenset({"cudadevrt", "culibos"})

# find_package names of CUDA-side packages -> ROCm package.
PACKAGES: dict[str, str] = {"CUDAToolkit": "hip", "CUDA": "hip", "NCCL": "rccl",
                            "CUB": "hipcub", "Thrust": "rocthrust"}


def looks_like_cuda_library(name: str) -> bool:
    """Link names of NVIDIA libraries hipport has no counterpart for (cupti,
    nvjpeg, npp*, nvidia-ml, ...)."""
    return name.startswith(("cu", "nv", "npp")) and name not in ("curses",)
