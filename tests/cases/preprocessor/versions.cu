// CUDA version tests: hipcc defines none of CUDART_VERSION, CUDA_VERSION or
// __CUDACC_VER_*__, so unresolved they would pick the "no CUDA" or oldest
// branch (here an #error).  Resolved for CUDA 12.0, the default assumption.
#include <cuda_runtime.h>

#ifndef CUDART_VERSION
#error CUDART_VERSION undefined
#elif CUDART_VERSION < 9000
#error this code needs CUDA 9.0 or newer
#endif

#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ > 11 || \
    (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 2))
#define HAS_ASYNC_ALLOC 1
#else
#define HAS_ASYNC_ALLOC 0
#endif

__global__ void fill(float* p, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int run(int n, cudaStream_t stream)
{
    float* p = nullptr;
#if CUDA_VERSION >= 11020 && HAS_ASYNC_ALLOC
    if (cudaMallocAsync(reinterpret_cast<void**>(&p), n * sizeof(float), stream) != cudaSuccess)
        return -1;
    fill<<<(n + 255) / 256, 256, 0, stream>>>(p, 1.0f, n);
    return cudaFreeAsync(p, stream) == cudaSuccess ? 0 : -1;
#else
    old_cuda_allocation_path(p, n);  // would not compile
    return -1;
#endif
}
