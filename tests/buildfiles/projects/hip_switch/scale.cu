#include "gpu.h"
#include "portable.h"
#include "scale.h"

__global__ void scale_kernel(float* x, int n, float by, float* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] * by : 0.0f;
  if (i < n) x[i] = v;
  v = lane_sum(v);
  if (threadIdx.x % WARP_SIZE == 0) atomicAdd(total, v);
}

float scale(float* host, int n, float by) {
  float* dev = nullptr;
  float* total = nullptr;
  float sum = 0.0f;
  cudaStream_t stream;
  GPU_CHECK(cudaStreamCreate(&stream));
  GPU_CHECK(cudaMalloc(&dev, n * sizeof(float)));
  GPU_CHECK(cudaMalloc(&total, sizeof(float)));
  GPU_CHECK(cudaMemcpyAsync(dev, host, n * sizeof(float), cudaMemcpyHostToDevice, stream));
  GPU_CHECK(cudaMemcpyAsync(total, &sum, sizeof(float), cudaMemcpyHostToDevice, stream));
#ifdef BUILD_HIP
  hipLaunchKernelGGL(scale_kernel, dim3((n + 255) / 256), dim3(256), 0, stream, dev, n, by,
                     total);
#else
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(dev, n, by, total);
#endif
  GPU_CHECK(cudaMemcpyAsync(host, dev, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  GPU_CHECK(cudaMemcpyAsync(&sum, total, sizeof(float), cudaMemcpyDeviceToHost, stream));
  GPU_CHECK(cudaStreamSynchronize(stream));
  GPU_CHECK(cudaFree(dev));
  GPU_CHECK(cudaFree(total));
  GPU_CHECK(cudaStreamDestroy(stream));
  return sum;
}
