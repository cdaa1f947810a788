// Version checks, platform guards and code in every branch.
#include <cuda_runtime.h>

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#ifdef USE_MANAGED
#define ALLOC(ptr, bytes) cudaMallocManaged(&(ptr), (bytes))
#else
#define ALLOC(ptr, bytes) cudaMalloc(&(ptr), (bytes))
#endif

#define STRINGIFY(x) #x
#define API_NAME STRINGIFY(cudaMalloc)

HOST_DEVICE inline int twice(int x) { return 2 * x; }

int make_buffer(float*& p, size_t n)
{
#if CUDART_VERSION >= 11020
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMallocAsync(reinterpret_cast<void**>(&p), n * sizeof(float), s);
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return 0;
#else
    return ALLOC(p, n * sizeof(float)) == cudaSuccess ? 0 : -1;
#endif
}
