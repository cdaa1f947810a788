// Built only when the CMake version checks pass and pick the CUDA 11 branch.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef HAVE_CUDA_11
#error "the CUDA 11 branch of the build was not taken"
#endif

__global__ void fill(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int* out = nullptr;
  if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess) return 1;
  fill<<<1, 32>>>(out);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return cudaFree(out) == cudaSuccess ? 0 : 1;
}
