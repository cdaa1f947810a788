// hipport-flags: --launch-syntax=hip
#include <cuda_runtime.h>

template <typename T, int UNROLL>
__global__ void scale(T* data, T factor, size_t n)
{
    size_t i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
    for (int u = 0; u < UNROLL; ++u)
        if (i + u < n) data[i + u] *= factor;
}

__global__ void fill(float* data, float v) { data[threadIdx.x] = v; }

void run(float* d, double* e, size_t n, cudaStream_t stream)
{
    dim3 grid((n + 255) / 256), block(256);
    scale<float, 4><<<grid, block, 0, stream>>>(d, 2.0f, n);
    scale<double, 2><<<grid, block>>>(e, 0.5, n);
    fill<<<1, 32, 0>>>(d, 1.0f);
    fill<<<dim3(1), dim3(32), 0, cudaStreamPerThread>>>(d, 0.0f);
}
