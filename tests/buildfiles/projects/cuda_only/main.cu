#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

int main() {
    int* d = nullptr;
    if (cudaMalloc(&d, 256 * sizeof(int)) != cudaSuccess) return 1;
    fill<<<1, 256>>>(d, 256);
    cudaDeviceSynchronize();
    cudaFree(d);
    std::puts("ok");
    return 0;
}
