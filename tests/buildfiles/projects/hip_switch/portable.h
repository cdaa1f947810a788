// Already portable: each compiler takes its own branch, hipcc the HIP one.
#pragma once
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define WARP_SIZE warpSize
__device__ inline float lane_sum(float v) {
  for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_down(v, d);
  return v;
}
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#define WARP_SIZE 32
__device__ inline float lane_sum(float v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}
#endif
