"""Per-library configuration: which CUDA headers hold a library's public
names, how to recognise them, and which HIP library is the counterpart."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Library:
    name: str                 # hipport library key (YAML ``library``)
    hip_library: str          # ROCm counterpart (YAML ``hip_library``)
    headers: tuple[str, ...]  # globs relative to a CUDA include dir
    public: str               # regex a public name must match (fullmatch)
    qualify: str = ""         # prefix for C++ names, e.g. "cub::"
    macros: bool = True       # take #define names too
    functions_kind: str = "function"


_VEC = r"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4](?:_16a|_32a)?"
_GUARD = r"__\w+_H(?:PP)?_*|__\w+_h__"

LIBRARIES: tuple[Library, ...] = (
    Library(
        "runtime", "hip",
        ("cuda_runtime.h", "cuda_runtime_api.h", "driver_types.h", "driver_functions.h",
         "vector_types.h", "texture_types.h", "surface_types.h", "library_types.h",
         "cuda_device_runtime_api.h", "channel_descriptor.h", "cuda_profiler_api.h",
         "cuda_gl_interop.h", "cuda_egl_interop.h", "cuda_vdpau_interop.h",
         "builtin_types.h", "device_types.h", "cuda_occupancy.h", "cuda_texture_types.h",
         "cuda_surface_types.h", "host_defines.h"),
        rf"(?:cuda[A-Z]\w*|cuda_\w+|cudaOcc\w*|CUDA\w*|CUDART_\w+|make_cuda\w+|dim3|{_VEC}|{_GUARD})",
    ),
    Library(
        "driver", "hip",
        ("cuda.h", "cudaProfiler.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h"),
        rf"(?:cu[A-Z]\w*|CU[A-Z_]\w*|CUDA\w*|{_GUARD})",
    ),
    Library(
        "device", "hip",
        ("crt/math_functions.h", "crt/math_functions.hpp", "crt/device_functions.h",
         "crt/device_functions.hpp", "crt/device_double_functions.h",
         "crt/sm_70_rt.h", "crt/sm_80_rt.h", "crt/sm_90_rt.h", "crt/sm_100_rt.h",
         "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_32_atomic_functions.h",
         "sm_35_atomic_functions.h", "sm_60_atomic_functions.h", "sm_20_intrinsics.h",
         "sm_30_intrinsics.h", "sm_32_intrinsics.h", "sm_35_intrinsics.h", "sm_61_intrinsics.h",
         "cuda_fp16.h", "cuda_fp16.hpp", "cuda_bf16.h", "cuda_bf16.hpp", "cuda_fp8.h",
         "cuda_fp8.hpp", "cuda_fp6.h", "cuda_fp6.hpp", "cuda_fp4.h", "cuda_fp4.hpp",
         "texture_indirect_functions.h", "surface_indirect_functions.h",
         "vector_functions.h", "vector_functions.hpp", "math_constants.h"),
        r"(?!__internal|__cuda|__nvvm|__iAtomic|__uAtomic|__ullAtomic|__illAtomic|__fAtomic"
        r"|__dAtomic|__usAtomic|__hAtomic|__bAtomic|__builtin|__device_builtin|__CUDA|__DEVICE"
        r"|__SM_|__FP16|__BF16|__nv_fp8_interpretation|__pm\d|__half_raw_\w|_[a-z0-9A-Z])"
        r"(?:CUDART_\w+|__\w+|[a-zA-Z]\w*)",
        functions_kind="device_function",
    ),
    Library(
        "cooperative_groups", "hip",
        ("cooperative_groups.h", "cooperative_groups/reduce.h", "cooperative_groups/scan.h",
         "cooperative_groups/memcpy_async.h"),
        r"[a-z][a-z0-9_]*", qualify="cooperative_groups::", macros=False,
        functions_kind="device_function",
    ),
    Library("cublas", "hipblas", ("cublas_api.h", "cublas_v2.h", "cublas.h", "cublasXt.h"),
            r"(?!cublasLt|CUBLASLT)(?:cublas\w+|CUBLAS\w+)"),
    Library("cublaslt", "hipblaslt", ("cublasLt.h",), r"(?:cublasLt\w+|CUBLASLT\w+)"),
    Library("curand", "hiprand", ("curand.h", "curand_*.h"),
            r"(?:curand\w*|CURAND\w+|__CURAND\w+_H_*)"),
    Library("cufft", "hipfft", ("cufft.h", "cufftXt.h", "cudalibxt.h"),
            r"(?:cufft\w+|CUFFT\w+|cudaLibXt\w+|CUDA_XT\w*|_CUFFT_H_|_CUFFTXT_H_)"),
    Library("cusparse", "hipsparse", ("cusparse.h", "cusparse_v2.h"),
            r"(?:cusparse\w+|CUSPARSE\w+)"),
    Library("cusolver", "hipsolver",
            ("cusolver_common.h", "cusolverDn.h", "cusolverSp.h", "cusolverRf.h", "cusolverMg.h",
             "cusolverSp_LOWLEVEL_PREVIEW.h"),
            r"(?:cusolver\w+|CUSOLVER\w+|csrqrInfo\w*|cusolverDnIRS\w+)"),
    Library("nccl", "rccl", ("nccl.h",), r"(?:nccl\w+|NCCL\w+)"),
    Library("nvrtc", "hiprtc", ("nvrtc.h",), r"(?:nvrtc\w+|NVRTC\w+|__NVRTC_H__)"),
    Library("nvtx", "roctx",
            ("nvtx3/nvToolsExt.h", "nvtx3/nvToolsExtCuda.h", "nvtx3/nvToolsExtCudaRt.h",
             "nvtx3/nvToolsExtSync.h"),
            r"(?:nvtx[A-Z]\w*|NVTX_\w+)"),
    Library("cucomplex", "hip", ("cuComplex.h",),
            r"(?:cuC\w+|cuComplex\w*|cuDoubleComplex|cuFloatComplex|make_cu\w+|CU_COMPLEX_H_)"),
    Library("cudnn", "miopen", ("cudnn*.h",), r"(?:cudnn\w+|CUDNN\w+)"),
    Library("cub", "hipcub",
            ("cub/device/*.cuh", "cub/block/*.cuh", "cub/warp/*.cuh", "cub/iterator/*.cuh",
             "cub/thread/thread_operators.cuh", "cub/util_type.cuh", "cub/util_allocator.cuh",
             "cub/grid/*.cuh"),
            r"(?!Dispatch|Agent|Tuning)[A-Z][A-Za-z0-9]*(?<!Impl)(?<!Policy)(?<!Agent)",
            qualify="cub::", macros=False),
)

BY_NAME: dict[str, Library] = {lib.name: lib for lib in LIBRARIES}

HIP_LIBRARY: dict[str, str] = {lib.name: lib.hip_library for lib in LIBRARIES}
HIP_LIBRARY.update({"thrust": "rocthrust", "headers": "hip"})

ALL_LIBRARIES = (
    "runtime", "driver", "device", "cooperative_groups", "cublas", "cublaslt", "curand",
    "cufft", "cusparse", "cusolver", "cub", "thrust", "nccl", "nvrtc", "nvtx", "cucomplex",
    "cudnn", "headers",
)
HIP_LIBRARIES = (
    "hip", "hipblas", "hipblaslt", "hiprand", "hipfft", "hipsparse", "hipsolver", "hipcub",
    "rocthrust", "rccl", "hiprtc", "roctx", "miopen",
)


def is_public(lib: Library, name: str) -> bool:
    bare = name[len(lib.qualify):] if lib.qualify and name.startswith(lib.qualify) else name
    return re.fullmatch(lib.public, bare) is not None


# --- prefix rules ------------------------------------------------------------

_PREFIX_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "runtime": (("cuda", "hip"), ("CUDA", "HIP"), ("make_cuda", "make_hip")),
    "driver": (("cu", "hip"), ("CU_", "HIP_"), ("CUDA_", "HIP_")),
    "cublas": (("cublas", "hipblas"), ("CUBLAS_", "HIPBLAS_")),
    "cublaslt": (("cublasLt", "hipblasLt"), ("CUBLASLT_", "HIPBLASLT_")),
    "curand": (("curand", "hiprand"), ("CURAND_", "HIPRAND_")),
    "cufft": (("cufft", "hipfft"), ("CUFFT_", "HIPFFT_")),
    "cusparse": (("cusparse", "hipsparse"), ("CUSPARSE_", "HIPSPARSE_")),
    "cusolver": (("cusolver", "hipsolver"), ("CUSOLVER_", "HIPSOLVER_")),
    "nvrtc": (("nvrtc", "hiprtc"), ("NVRTC_", "HIPRTC_")),
    "cucomplex": (("make_cu", "make_hip"), ("cu", "hip")),
    "cub": (("cub::", "hipcub::"),),
}
_SAME_NAME = frozenset({"device", "cooperative_groups", "nccl"})


def prefix_rule(library: str, name: str) -> str | None:
    """Propose a HIP spelling for ``name`` by prefix substitution."""
    if library == "device" and name.startswith(("__nv_", "__NV_")):
        # cuda_bf16.h/cuda_fp8.h spell their types __nv_*; hip_bf16.h/hip_fp8.h __hip_*.
        return ("__hip_" if name.startswith("__nv_") else "__HIP_") + name[5:]
    if library in _SAME_NAME:
        return name
    if library == "runtime" and re.fullmatch(_VEC + "|dim3", name):
        return name
    for cuda, hip in _PREFIX_RULES.get(library, ()):
        if name.startswith(cuda):
            return hip + name[len(cuda):]
    return None
