// A launch with attributes: cudaLaunchKernelEx has a HIP counterpart from
// ROCm 7.2 on (hipLaunchKernelEx, hipLaunchConfig_t).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

int main() {
    const int n = 1 << 16;
    float* data;
    cudaMalloc(&data, sizeof(float) * n);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 255) / 256);
    config.blockDim = dim3(256);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeCooperative;
    attribute[0].val.cooperative = 0;
    config.attrs = attribute;
    config.numAttrs = 1;
    cudaError_t err = cudaLaunchKernelEx(&config, scale, data, 2.0f, n);
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(err));
    cudaFree(data);
    return err == cudaSuccess ? 0 : 1;
}
