// One kernel and its launcher; main.cpp links launch_Backend, so a file left
// out of the build is an undefined reference.
#include <cuda_runtime.h>

__global__ void Backend_kernel(int* out) { out[threadIdx.x] += 1; }

int launch_Backend(int* device_out) {
  Backend_kernel<<<1, 32>>>(device_out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
