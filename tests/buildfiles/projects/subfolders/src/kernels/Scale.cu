// One kernel and its launcher; main.cpp links launch_Scale, so a file left
// out of the build is an undefined reference.
#include <cuda_runtime.h>

__global__ void Scale_kernel(int* out) { out[threadIdx.x] += 1; }

int launch_Scale(int* device_out) {
  Scale_kernel<<<1, 32>>>(device_out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
