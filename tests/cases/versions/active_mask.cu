// __activemask() is __ballot(1) on every ROCm release (ROCm 6.2+ declares its own
// __activemask only behind HIP_ENABLE_WARP_SYNC_BUILTINS, as `return __ballot(true)`).
#include <cuda_runtime.h>

__global__ void count_active(int* out) {
  unsigned long long active = __activemask();
  if (threadIdx.x == 0) out[blockIdx.x] = __popcll(active);
}

__global__ void broadcast(float* data) {
  float v = data[threadIdx.x];
  v = __shfl_sync(__activemask(), v, 0);
  data[threadIdx.x] = v;
}
