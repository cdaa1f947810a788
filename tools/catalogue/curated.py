"""Hand-made decisions that override generated proposals.

Each value is a complete YAML entry (minus ``cuda``).  These encode the
project's conversion decisions (see issue #3); the generator applies them
whenever it proposes an entry for the name.
"""
from __future__ import annotations

from typing import Any

Entry = dict[str, Any]

_WARP_NOTE = (
    "mask argument dropped: HIP's mask-less warp functions act on the whole wavefront, on "
    "every ROCm release. ROCm 6.2+ also declares _sync forms, but only with "
    "HIP_ENABLE_WARP_SYNC_BUILTINS defined and with 64-bit masks that must name exactly the "
    "active lanes, which a CUDA 32-bit mask does not on 64-lane wavefronts; check code that "
    "assumes 32 lanes"
)
_WARP_SYNC_ONLY = (
    "ROCm 6.2+ declares it only with HIP_ENABLE_WARP_SYNC_BUILTINS defined, and takes a "
    "64-bit mask that must name exactly the active lanes; hipport does not define the macro "
    "for you"
)
_SYMBOL_NOTE = "the symbol argument is wrapped in HIP_SYMBOL(); HIP needs it to find device symbols"
_SECOND_SYMBOL_NOTE = ("the symbol (second) argument is wrapped in HIP_SYMBOL(); HIP needs it "
                       "to find device symbols")


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
        "not declared in the HIP 5.2, 5.7 or 6.4 headers checked: the lanes of a wavefront "
        "execute in lock step, so remove the call, or use __syncthreads() if a block-level "
        "barrier is meant"),
    # ROCm 6.2+'s own __activemask() (behind HIP_ENABLE_WARP_SYNC_BUILTINS) is
    # `return __ballot(true);`: the same thing, on every release.
    "__activemask": {"hip": "__ballot", "kind": "device_function", "rule": "activemask-as-ballot",
                     "note": "__activemask() becomes __ballot(1), the mask of the active lanes "
                             "(what ROCm 6.2+'s own __activemask returns); it is 64 bits wide "
                             "on wave64 GPUs"},
    "__match_any_sync": _unsupported(
        "device_function",
        f"no HIP 5.x equivalent; {_WARP_SYNC_ONLY}; emulate with a loop over __shfl/__ballot"),
    "__match_all_sync": _unsupported(
        "device_function",
        f"no HIP 5.x equivalent; {_WARP_SYNC_ONLY}; emulate with __ballot comparisons"),
    # --- multi-process FFT -----------------------------------------------------------
    "cufftXtSetDistribution": _unsupported(
        "function",
        "hipfftXtSetDistribution (ROCm 6.4, experimental) is declared in hipfft/hipfftMp.h, "
        "which no converted include brings in: include it and rename the call by hand"),
    # --- symbols --------------------------------------------------------------------
    "cudaMemcpyToSymbol": {"hip": "hipMemcpyToSymbol", "kind": "function",
                           "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaMemcpyToSymbolAsync": {"hip": "hipMemcpyToSymbolAsync", "kind": "function",
                                "rule": "wrap-symbol-argument", "note": _SYMBOL_NOTE},
    "cudaMemcpyFromSymbol": {"hip": "hipMemcpyFromSymbol", "kind": "function",
                            "rule": "wrap-second-symbol-argument", "note": _SECOND_SYMBOL_NOTE},
    "cudaMemcpyFromSymbolAsync": {"hip": "hipMemcpyFromSymbolAsync", "kind": "function",
                                  "rule": "wrap-second-symbol-argument",
                                  "note": _SECOND_SYMBOL_NOTE},
    "cudaGetSymbolAddress": {"hip": "hipGetSymbolAddress", "kind": "function",
                            "rule": "wrap-second-symbol-argument", "note": _SECOND_SYMBOL_NOTE},
    "cudaGetSymbolSize": {"hip": "hipGetSymbolSize", "kind": "function",
                         "rule": "wrap-second-symbol-argument", "note": _SECOND_SYMBOL_NOTE},
    # --- pinned host memory ------------------------------------------------------------
    "cudaMallocHost": {"hip": "hipHostMalloc", "kind": "function", "note":
                       "hipHostMalloc on every ROCm release checked (HIP marks hipMallocHost "
                       "deprecated in its favour); the flags argument defaults to 0"},
    "cudaFreeHost": {"hip": "hipHostFree", "kind": "function", "note":
                     "hipHostFree on every ROCm release checked (HIP 5.x marks hipFreeHost "
                     "deprecated in its favour)"},
    "cudaHostAlloc": {"hip": "hipHostMalloc", "kind": "function", "note":
                      "same arguments; cudaHostAlloc* flags map to hipHostMalloc* flags"},
    # HIP 5.x's deprecated hipHostAlloc passes its flags to the device allocator
    # (libamdhip64 5.2: the same internal call as hipMalloc, with the caller's
    # flags): cuMemHostAlloc(&p, n, 0) got device memory the host cannot touch.
    "cuMemHostAlloc": {"hip": "hipHostMalloc", "kind": "function", "note":
                       "hipHostMalloc on every ROCm release checked: HIP 5.x's hipHostAlloc "
                       "(deprecated there) allocates device memory; CU_MEMHOSTALLOC_* flags "
                       "map to hipHostMalloc* flags of the same values"},
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
    "cuda.h": ("hip/hip_runtime.h", "driver"),
    "cuda_runtime.h": ("hip/hip_runtime.h", "runtime"),
    "cuda_runtime_api.h": ("hip/hip_runtime_api.h", "runtime"),
    "channel_descriptor.h": ("hip/channel_descriptor.h", "runtime"),
    "device_functions.h": ("hip/device_functions.h", "device"),
    "crt/device_functions.h": ("hip/device_functions.h", "device"),
    "driver_types.h": ("hip/driver_types.h", "runtime"),
    "cuda_fp16.h": ("hip/hip_fp16.h", "device"),
    "cuda_bf16.h": ("hip/hip_bf16.h", "device"),
    "cuda_fp8.h": ("hip/hip_fp8.h", "device"),
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
    "cudaGL.h": ("hip/hip_gl_interop.h", "driver"),
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

# Headers whose HIP counterpart is newer than the oldest release: what older
# targets include instead (same API, another header).
_GL_BEFORE = {"hip": "hip/hip_runtime_api.h",
              "note": "before hip/hip_gl_interop.h (ROCm 5.7), HIP declares its OpenGL interop "
                      "API in hip/hip_runtime_api.h"}
OLDER_HEADERS: dict[str, Entry] = {
    "cuda_gl_interop.h": _GL_BEFORE,
    "cudaGL.h": _GL_BEFORE,
}

# --- the driver's JIT linker and its options ------------------------------------------
# cuLink* return CUresult and take CUjit_option options.  HIPIFY names hiprtcLink*,
# which return hiprtcResult, take hiprtcJIT_option and need hip/hiprtc.h: no
# stand-in for a driver call.  ROCm 6.4 declares hipLink* in hip_runtime_api.h
# with the driver's shape; older releases have no equivalent (HP905).
_LINKER = {
    "cuLinkAddData": "hipLinkAddData", "cuLinkAddData_v2": "hipLinkAddData",
    "cuLinkAddFile": "hipLinkAddFile", "cuLinkAddFile_v2": "hipLinkAddFile",
    "cuLinkComplete": "hipLinkComplete", "cuLinkCreate": "hipLinkCreate",
    "cuLinkCreate_v2": "hipLinkCreate", "cuLinkDestroy": "hipLinkDestroy",
}
_LINKER_TYPES = {
    "CUlinkState": "hipLinkState_t", "CUlinkState_st": "ihipLinkState_t",
    "CUjitInputType": "hipJitInputType", "CUjitInputType_enum": "hipJitInputType",
}
_JIT_ENUMERATORS = {
    "CU_JIT_INPUT_CUBIN": "hipJitInputCubin", "CU_JIT_INPUT_PTX": "hipJitInputPtx",
    "CU_JIT_INPUT_FATBINARY": "hipJitInputFatBinary", "CU_JIT_INPUT_OBJECT": "hipJitInputObject",
    "CU_JIT_INPUT_LIBRARY": "hipJitInputLibrary", "CU_JIT_INPUT_NVVM": "hipJitInputNvvm",
    "CU_JIT_NUM_INPUT_TYPES": "hipJitNumLegacyInputTypes",
    # CUjit_option is hipJitOption (HIP 5.2 on): its enumerators, not hiprtc's
    # HIPRTC_JIT_* (another enum type before ROCm 6, declared in hip/hiprtc.h).
    "CU_JIT_MAX_REGISTERS": "hipJitOptionMaxRegisters",
    "CU_JIT_THREADS_PER_BLOCK": "hipJitOptionThreadsPerBlock",
    "CU_JIT_WALL_TIME": "hipJitOptionWallTime",
    "CU_JIT_INFO_LOG_BUFFER": "hipJitOptionInfoLogBuffer",
    "CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES": "hipJitOptionInfoLogBufferSizeBytes",
    "CU_JIT_ERROR_LOG_BUFFER": "hipJitOptionErrorLogBuffer",
    "CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES": "hipJitOptionErrorLogBufferSizeBytes",
    "CU_JIT_OPTIMIZATION_LEVEL": "hipJitOptionOptimizationLevel",
    "CU_JIT_TARGET_FROM_CUCONTEXT": "hipJitOptionTargetFromContext",
    "CU_JIT_TARGET": "hipJitOptionTarget",
    "CU_JIT_FALLBACK_STRATEGY": "hipJitOptionFallbackStrategy",
    "CU_JIT_GENERATE_DEBUG_INFO": "hipJitOptionGenerateDebugInfo",
    "CU_JIT_LOG_VERBOSE": "hipJitOptionLogVerbose",
    "CU_JIT_GENERATE_LINE_INFO": "hipJitOptionGenerateLineInfo",
    "CU_JIT_CACHE_MODE": "hipJitOptionCacheMode",
    "CU_JIT_NEW_SM3X_OPT": "hipJitOptionSm3xOpt",
    "CU_JIT_FAST_COMPILE": "hipJitOptionFastCompile",
    "CU_JIT_GLOBAL_SYMBOL_NAMES": "hipJitOptionGlobalSymbolNames",
    "CU_JIT_GLOBAL_SYMBOL_ADDRESSES": "hipJitOptionGlobalSymbolAddresses",
    "CU_JIT_GLOBAL_SYMBOL_COUNT": "hipJitOptionGlobalSymbolCount",
    "CU_JIT_LTO": "hipJitOptionLto", "CU_JIT_FTZ": "hipJitOptionFtz",
    "CU_JIT_PREC_DIV": "hipJitOptionPrecDiv", "CU_JIT_PREC_SQRT": "hipJitOptionPrecSqrt",
    "CU_JIT_FMA": "hipJitOptionFma",
    "CU_JIT_POSITION_INDEPENDENT_CODE": "hipJitOptionPositionIndependentCode",
    "CU_JIT_MIN_CTA_PER_SM": "hipJitOptionMinCTAPerSM",
    "CU_JIT_MAX_THREADS_PER_BLOCK": "hipJitOptionMaxThreadsPerBlock",
    "CU_JIT_OVERRIDE_DIRECTIVE_VALUES": "hipJitOptionOverrideDirectiveValues",
    "CU_JIT_NUM_OPTIONS": "hipJitOptionNumOptions",
}
CURATED.update({cuda: {"hip": hip, "kind": "function"} for cuda, hip in _LINKER.items()})
CURATED.update({cuda: {"hip": hip, "kind": "type"} for cuda, hip in _LINKER_TYPES.items()})
CURATED.update({cuda: {"hip": hip, "kind": "enum"} for cuda, hip in _JIT_ENUMERATORS.items()})

# --- NVRTC's device binary ---------------------------------------------------------
# A CUBIN is the code object cuModuleLoadData loads; hipRTC's is hiprtcGetCode
# (every release), which hipModuleLoadData loads.  HIPIFY's hiprtcGetBitcode
# returns LLVM bitcode (for hiprtcLink*), which no module loader takes.
CURATED.update({
    "nvrtcGetCUBIN": {"hip": "hiprtcGetCode", "kind": "function",
                      "note": "the code object hipModuleLoadData loads (not LLVM bitcode)"},
    "nvrtcGetCUBINSize": {"hip": "hiprtcGetCodeSize", "kind": "function",
                          "note": "the size of the code object hiprtcGetCode returns"},
})
