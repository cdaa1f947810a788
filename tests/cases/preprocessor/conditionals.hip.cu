// Version checks, platform guards and code in every branch.
#include <hip/hip_runtime.h>

#if defined(__HIPCC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#ifdef USE_MANAGED
#define ALLOC(ptr, bytes) hipMallocManaged(&(ptr), (bytes))
#else
#define ALLOC(ptr, bytes) hipMalloc(&(ptr), (bytes))
#endif

#define STRINGIFY(x) #x
#define API_NAME STRINGIFY(cudaMalloc)

HOST_DEVICE inline int twice(int x) { return 2 * x; }

int make_buffer(float*& p, size_t n)
{
#if 1 // CUDA 12.0 assumed: #if CUDART_VERSION >= 11020
    hipStream_t s;
    hipStreamCreate(&s);
    hipMallocAsync(reinterpret_cast<void**>(&p), n * sizeof(float), s);
    hipStreamSynchronize(s);
    hipStreamDestroy(s);
    return 0;
#else
    return ALLOC(p, n * sizeof(float)) == hipSuccess ? 0 : -1;
#endif
}
