// The project's runtime layer: CUDA names everywhere, mapped to HIP's for
// its own HIP build.
#pragma once
#include <cstdio>
#include <cstdlib>

#if defined(BUILD_HIP)
#include <hip/hip_runtime.h>
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
typedef hipStream_t cudaStream_t;
inline hipError_t cudaStreamCreate(hipStream_t* stream) { return hipStreamCreate(stream); }
inline hipError_t cudaStreamSynchronize(hipStream_t stream) { return hipStreamSynchronize(stream); }
inline hipError_t cudaStreamDestroy(hipStream_t stream) { return hipStreamDestroy(stream); }
#else
#include <cuda_runtime.h>
#endif

#define GPU_CHECK(call)                                                   \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      std::fprintf(stderr, "%s\n", cudaGetErrorString(err_));             \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)
