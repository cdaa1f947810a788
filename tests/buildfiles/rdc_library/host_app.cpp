// A C++ executable: no device code of its own, but the library it links
// needs a device link (CMake does it for CUDA at this executable).
#include <cstdio>
#include <cuda_runtime.h>
#include "scale.cuh"

int main() {
  const int n = 256;
  float* data = nullptr;
  float first = -1.0f;
  cudaError_t err = cudaMalloc(&data, n * sizeof(float));
  if (err == cudaSuccess) err = cudaMemset(data, 0, n * sizeof(float));
  if (err == cudaSuccess) err = scale_on_device(data, n, 3.0f);
  if (err == cudaSuccess)
    err = cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  if (data != nullptr && cudaFree(data) != cudaSuccess && err == cudaSuccess)
    err = cudaErrorUnknown;
  std::printf("%s, data[0] = %g (expected 1)\n", cudaGetErrorString(err), first);
  return err == cudaSuccess && first == 1.0f ? 0 : 1;
}
