"""Hand-made decisions that override generated proposals.

Each value is a complete YAML entry (minus ``cuda``).  These encode the
project's conversion decisions (see issue #3); the generator applies them
whenever it proposes an entry for the name.
"""
from __future__ import annotations

from typing import Any

Entry = dict[str, Any]

_WARP_NOTE = (
    "mask argument dropped: HIP before ROCm 6.2 has no _sync variant and later ROCm "
    "needs a 64-bit mask; HIP wavefronts are 64 lanes wide on most AMD GPUs, so check "
    "code that assumes 32 lanes"
)
_SYMBOL_NOTE = "the symbol argument is wrapped in HIP_SYMBOL(); HIP needs it to find device symbols"


def _warp(hip: str) -> Entry:
    return {"hip": hip, "kind": "device_function", "rule": "drop-first-argument",
            "note": _WARP_NOTE}


def _unsupported(kind: str, note: str) -> Entry:
    return {"kind": kind, "status": "unsupported", "note": note}


CURATED: dict[str, Entry] = {
    # --- warp intrinsics --------------------------------------------------------
    "__shfl_sync": _warp("__shfl"),
    "__shfl_up_sync": _warp("__shfl_up"),
    "__shfl_down_sync": _warp("__shfl_down"),
    "__shfl_xor_sync": _warp("__shfl_xor"),
    "__ballot_sync": _warp("__ballot"),
    "__any_sync": _warp("__any"),
    "__all_sync": _warp("__all"),
    "__syncwarp": _unsupported(
        "device_function",
        "not declared in the HIP 5.2/5.7 headers checked; newer ROCm (6.2+) provides "
        "warp-sync builtins behind HIP_ENABLE_WARP_SYNC_BUILTINS. On older HIP lanes of a "
        "wavefront execute in lock step: remove the call or use __syncthreads() if a "
        "block-level barrier is meant"),
    "__activemask": _unsupported(
        "device_function",
        "not declared in the HIP 5.2/5.7 headers checked; __ballot(1) returns the mask "
        "of active lanes (64-bit on wave64 GPUs)"),
    "__match_any_sync": _unsupported(
        "device_function",
        "no HIP 5.x equivalent; emulate with a loop over __shfl/__ballot, or require "
        "ROCm 6.2+ warp-sync builtins"),
    "__match_all_sync": _unsupported(
        "device_function",
        "no HIP 5.x equivalent; emulate with __ballot comparisons, or require ROCm 6.2+ "
        "warp-sync builtins"),
    # --- symbols --------------------------------------------------------------------
    "cudaMemcpyToSymbol": {"hip": "hipMemcpyToSymbol", "kind": "function",
                           "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaMemcpyToSymbolAsync": {"hip": "hipMemcpyToSymbolAsync", "kind": "function",
                                "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaMemcpyFromSymbol": {"hip": "hipMemcpyFromSymbol", "kind": "function",
                             "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaMemcpyFromSymbolAsync": {"hip": "hipMemcpyFromSymbolAsync", "kind": "function",
                                  "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaGetSymbolAddress": {"hip": "hipGetSymbolAddress", "kind": "function",
                             "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaGetSymbolSize": {"hip": "hipGetSymbolSize", "kind": "function",
                          "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    # --- pinned host memory ------------------------------------------------------------
    "cudaMallocHost": {"hip": "hipHostMalloc", "kind": "function", "note":
                       "hipHostMalloc is the HIP 5.x spelling (ROCm 6 adds hipMallocHost "
                       "and deprecates hipHostMalloc); the flags argument defaults to 0"},
    "cudaFreeHost": {"hip": "hipHostFree", "kind": "function", "note":
                     "hipHostFree is the HIP 5.x spelling; ROCm 6 prefers hipFreeHost"},
    "cudaHostAlloc": {"hip": "hipHostMalloc", "kind": "function", "note":
                      "same arguments; cudaHostAlloc* flags map to hipHostMalloc* flags"},
    "cudaHostAllocDefault": {"hip": "hipHostMallocDefault", "kind": "macro"},
    "cudaHostAllocPortable": {"hip": "hipHostMallocPortable", "kind": "macro"},
    "cudaHostAllocMapped": {"hip": "hipHostMallocMapped", "kind": "macro"},
    "cudaHostAllocWriteCombined": {"hip": "hipHostMallocWriteCombined", "kind": "macro"},
    # --- compiler macros -----------------------------------------------------------------
    "__CUDA_ARCH__": {"hip": "__HIP_DEVICE_COMPILE__", "kind": "macro", "applicability": "unsafe",
                      "note": "__HIP_DEVICE_COMPILE__ is only defined (as 1) in device passes: "
                              "#ifdef/#if defined tests keep their meaning, but comparisons "
                              "such as __CUDA_ARCH__ >= 700 do not; rewrite them (e.g. with "
                              "__gfx*__ macros)"},
    "__CUDACC__": {"hip": "__HIPCC__", "kind": "macro"},
    "__NVCC__": {"hip": "__HIPCC__", "kind": "macro", "applicability": "unsafe",
                 "note": "__NVCC__ names the NVIDIA compiler driver; __HIPCC__ is the closest "
                         "HIP test"},
    "__CUDACC_RTC__": {"hip": "__HIPCC_RTC__", "kind": "macro"},
    "CUDART_VERSION": _unsupported(
        "macro", "no equivalent: HIP_VERSION (hip/hip_version.h) numbers ROCm releases "
                 "differently (major*10000000 + minor*100000 + patch); rewrite version checks"),
    "CUDA_VERSION": _unsupported(
        "macro", "no equivalent: HIP_VERSION (hip/hip_version.h) numbers ROCm releases "
                 "differently; rewrite version checks"),
    # --- include guards ------------------------------------------------------------------
    "__CUDA_RUNTIME_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_H", "kind": "macro",
                           "applicability": "unsafe",
                           "note": "include-guard macro of hip/hip_runtime.h; guard names are "
                                   "an implementation detail, prefer testing __HIPCC__"},
    "__CUDA_RUNTIME_API_H__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H", "kind": "macro",
                               "applicability": "unsafe",
                               "note": "include-guard macro of hip/hip_runtime_api.h; prefer "
                                       "testing __HIPCC__"},
    "__DRIVER_TYPES_H__": {"hip": "HIP_INCLUDE_HIP_DRIVER_TYPES_H", "kind": "macro",
                           "applicability": "unsafe",
                           "note": "include-guard macro of hip/driver_types.h"},
    "__cuda_cuda_h__": {"hip": "HIP_INCLUDE_HIP_HIP_RUNTIME_API_H", "kind": "macro",
                        "applicability": "unsafe",
                        "note": "cuda.h maps to the HIP runtime API header; this is its guard"},
    # --- NVTX -> roctx (roctracer is not packaged in Debian: not header-verified) --------------
    "nvtxRangePushA": {"hip": "roctxRangePushA", "kind": "function",
                       "note": "not header-verified (roctracer is not packaged in Debian); "
                               "include <roctracer/roctx.h> and link -lroctx64"},
    "nvtxRangePop": {"hip": "roctxRangePop", "kind": "function",
                     "note": "not header-verified (roctracer is not packaged in Debian)"},
    "nvtxMarkA": {"hip": "roctxMarkA", "kind": "function",
                  "note": "not header-verified (roctracer is not packaged in Debian)"},
    "nvtxRangeStartA": {"hip": "roctxRangeStartA", "kind": "function",
                        "note": "not header-verified (roctracer is not packaged in Debian); "
                                "returns roctx_range_id_t"},
    "nvtxRangeEnd": {"hip": "roctxRangeStop", "kind": "function",
                     "note": "not header-verified (roctracer is not packaged in Debian)"},
    "nvtxRangeId_t": {"hip": "roctx_range_id_t", "kind": "type",
                      "note": "not header-verified (roctracer is not packaged in Debian)"},
}

# cuDNN functions whose MIOpen counterpart takes the same arguments.
CUDNN_SAME_SHAPE: frozenset[str] = frozenset({
    "cudnnCreate", "cudnnDestroy", "cudnnSetStream", "cudnnGetStream",
    "cudnnCreateTensorDescriptor", "cudnnDestroyTensorDescriptor",
    "cudnnCreateConvolutionDescriptor", "cudnnDestroyConvolutionDescriptor",
    "cudnnCreatePoolingDescriptor", "cudnnDestroyPoolingDescriptor",
    "cudnnCreateActivationDescriptor", "cudnnDestroyActivationDescriptor",
    "cudnnCreateLRNDescriptor", "cudnnDestroyLRNDescriptor",
    "cudnnCreateDropoutDescriptor", "cudnnDestroyDropoutDescriptor",
    "cudnnCreateRNNDescriptor", "cudnnDestroyRNNDescriptor",
    "cudnnCreateReduceTensorDescriptor", "cudnnDestroyReduceTensorDescriptor",
    "cudnnCreateCTCLossDescriptor", "cudnnDestroyCTCLossDescriptor",
    "cudnnGetErrorString",
})

# Device built-ins that are variables or keywords, which a header scan misses.
DEVICE_BUILTINS: dict[str, str] = {
    "threadIdx": "type", "blockIdx": "type", "blockDim": "type", "gridDim": "type",
    "warpSize": "type",
    "__global__": "macro", "__device__": "macro", "__host__": "macro", "__shared__": "macro",
    "__constant__": "macro", "__managed__": "macro", "__launch_bounds__": "macro",
    "__forceinline__": "macro", "__noinline__": "macro", "__restrict__": "macro",
}

# CUDA header -> (HIP header, library).  Other CUDA headers are unsupported.
HEADERS: dict[str, tuple[str, str]] = {
    "cuda.h": ("hip/hip_runtime_api.h", "driver"),
    "cuda_runtime.h": ("hip/hip_runtime.h", "runtime"),
    "cuda_runtime_api.h": ("hip/hip_runtime_api.h", "runtime"),
    "channel_descriptor.h": ("hip/channel_descriptor.h", "runtime"),
    "device_functions.h": ("hip/device_functions.h", "device"),
    "crt/device_functions.h": ("hip/device_functions.h", "device"),
    "driver_types.h": ("hip/driver_types.h", "runtime"),
    "cuda_fp16.h": ("hip/hip_fp16.h", "device"),
    "cuda_bf16.h": ("hip/hip_bf16.h", "device"),
    "cuda_texture_types.h": ("hip/hip_texture_types.h", "runtime"),
    "texture_types.h": ("hip/texture_types.h", "runtime"),
    "surface_types.h": ("hip/surface_types.h", "runtime"),
    "vector_types.h": ("hip/hip_vector_types.h", "runtime"),
    "cuda_profiler_api.h": ("hip/hip_runtime_api.h", "runtime"),
    "cudaProfiler.h": ("hip/hip_runtime_api.h", "driver"),
    "cooperative_groups.h": ("hip/hip_cooperative_groups.h", "cooperative_groups"),
    "library_types.h": ("hip/library_types.h", "runtime"),
    "math_functions.h": ("hip/math_functions.h", "device"),
    "crt/math_functions.h": ("hip/math_functions.h", "device"),
    "cuda_gl_interop.h": ("hip/hip_gl_interop.h", "runtime"),
    "cuComplex.h": ("hip/hip_complex.h", "cucomplex"),
    "math_constants.h": ("hip/hip_math_constants.h", "device"),
    "cublas.h": ("hipblas/hipblas.h", "cublas"),
    "cublas_v2.h": ("hipblas/hipblas.h", "cublas"),
    "cublas_api.h": ("hipblas/hipblas.h", "cublas"),
    "cublasLt.h": ("hipblaslt/hipblaslt.h", "cublaslt"),
    "curand.h": ("hiprand/hiprand.h", "curand"),
    "curand_kernel.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_discrete.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_discrete2.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_globals.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_lognormal.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_mrg32k3a.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_mtgp32.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_mtgp32_kernel.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_mtgp32_host.h": ("hiprand/hiprand_mtgp32_host.h", "curand"),
    "curand_normal.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_normal_static.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_philox4x32_x.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_poisson.h": ("hiprand/hiprand_kernel.h", "curand"),
    "curand_uniform.h": ("hiprand/hiprand_kernel.h", "curand"),
    "cufft.h": ("hipfft/hipfft.h", "cufft"),
    "cufftXt.h": ("hipfft/hipfftXt.h", "cufft"),
    "cudalibxt.h": ("hipfft/hiplibxt.h", "cufft"),
    "cusparse.h": ("hipsparse/hipsparse.h", "cusparse"),
    "cusparse_v2.h": ("hipsparse/hipsparse.h", "cusparse"),
    "cusolverDn.h": ("hipsolver/hipsolver.h", "cusolver"),
    "cusolverSp.h": ("hipsolver/hipsolver.h", "cusolver"),
    "cusolverRf.h": ("hipsolver/hipsolver.h", "cusolver"),
    "cusolver_common.h": ("hipsolver/hipsolver.h", "cusolver"),
    "cub/cub.cuh": ("hipcub/hipcub.hpp", "cub"),
    "nccl.h": ("rccl/rccl.h", "nccl"),
    "nvrtc.h": ("hip/hiprtc.h", "nvrtc"),
    "nvtx3/nvToolsExt.h": ("roctracer/roctx.h", "nvtx"),
    "nvToolsExt.h": ("roctracer/roctx.h", "nvtx"),
    "cudnn.h": ("miopen/miopen.h", "cudnn"),
}
