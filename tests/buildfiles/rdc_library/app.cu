// A kernel of the executable calls the library's device function.
#include <cstdio>
#include "scale.cuh"

__global__ void twice(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale_value(data[i], 2.0f);
}

int main() {
  const int n = 1024;
  float* data = nullptr;
  float first = -1.0f;
  cudaError_t err = cudaMalloc(&data, n * sizeof(float));
  if (err == cudaSuccess) err = cudaMemset(data, 0, n * sizeof(float));
  if (err == cudaSuccess) {
    twice<<<(n + 255) / 256, 256>>>(data, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  if (data != nullptr && cudaFree(data) != cudaSuccess && err == cudaSuccess)
    err = cudaErrorUnknown;
  std::printf("%s, data[0] = %g (expected 1)\n", cudaGetErrorString(err), first);
  return err == cudaSuccess && first == 1.0f ? 0 : 1;
}
