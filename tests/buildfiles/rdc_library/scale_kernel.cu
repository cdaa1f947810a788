#include "scale.cuh"

__global__ void scale_kernel(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale_value(data[i], factor);
}

cudaError_t scale_on_device(float* data, int n, float factor) {
  scale_kernel<<<(n + 255) / 256, 256>>>(data, n, factor);
  return cudaGetLastError();
}
