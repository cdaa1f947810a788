// Needs nvcc's --extended-lambda (a __device__ lambda passed to a kernel)
// and --expt-relaxed-constexpr (a constexpr host function called in a kernel).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int twice(int x) { return 2 * x; }

template <typename F>
__global__ void apply(int* out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(i);
}

int main() {
  const int n = 256;
  int* out = nullptr;
  if (cudaMalloc(&out, n * sizeof(int)) != cudaSuccess) return 1;
  int offset = 3;
  apply<<<1, n>>>(out, n, [=] __device__(int i) { return twice(i) + offset; });
  int host[n];
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  cudaFree(out);
  std::printf("%d\n", host[n - 1]);
  return host[n - 1] == twice(n - 1) + offset ? 0 : 1;
}
