#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* v, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= s;
}

int main()
{
    const int n = 256;
    float* v = nullptr;
    cudaMalloc(&v, n * sizeof(float));
    scale<<<1, n>>>(v, 2.0f, n);
    cudaDeviceSynchronize();
    cudaFree(v);
    std::printf("done\n");
    return 0;
}
