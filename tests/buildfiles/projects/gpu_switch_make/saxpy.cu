#include <cuda_runtime.h>
#include <cstdio>

__global__ void saxpy(float a, const float* x, float* y, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}

int main() {
    float* x = nullptr;
    float* y = nullptr;
    cudaMalloc((void**)&x, 256 * sizeof(float));
    cudaMalloc((void**)&y, 256 * sizeof(float));
    saxpy<<<1, 256>>>(2.f, x, y, 256);
    const cudaError_t status = cudaDeviceSynchronize();
    cudaFree(x);
    cudaFree(y);
    std::printf("%s\n", cudaGetErrorString(status));
    return 0;
}
