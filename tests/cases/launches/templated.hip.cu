// hipport-flags: --launch-syntax=hip
#include <hip/hip_runtime.h>

template <typename T, int UNROLL>
__global__ void scale(T* data, T factor, size_t n)
{
    size_t i = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
    for (int u = 0; u < UNROLL; ++u)
        if (i + u < n) data[i + u] *= factor;
}

__global__ void fill(float* data, float v) { data[threadIdx.x] = v; }

void run(float* d, double* e, size_t n, hipStream_t stream)
{
    dim3 grid((n + 255) / 256), block(256);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 4>), grid, block, 0, stream, d, 2.0f, n);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<double, 2>), grid, block, 0, 0, e, 0.5, n);
    hipLaunchKernelGGL(fill, 1, 32, 0, 0, d, 1.0f);
    hipLaunchKernelGGL(fill, dim3(1), dim3(32), 0, hipStreamPerThread, d, 0.0f);
}
