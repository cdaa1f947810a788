// Error handling the way most CUDA projects do it: a checking macro whose
// body calls the runtime, and status comparisons in host code.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                   \
    do {                                                                   \
        cudaError_t status_ = (expr);                                      \
        if (status_ != cudaSuccess) {                                      \
            std::fprintf(stderr, "CUDA error %s at %s:%d (%s)\n",          \
                         cudaGetErrorName(status_), __FILE__, __LINE__,    \
                         cudaGetErrorString(status_));                     \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

static const char* describe(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "ok";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidValue: return "invalid value (cudaErrorInvalidValue)";
    default: return cudaGetErrorString(e);
    }
}

int allocate(float** out, size_t n)
{
    cudaError_t err = cudaMalloc(reinterpret_cast<void**>(out), n * sizeof(float));
    if (err != cudaSuccess) {
        std::fprintf(stderr, "%s\n", describe(err));
        cudaGetLastError();  // clear the sticky error
        return -1;
    }
    CUDA_CHECK(cudaMemset(*out, 0, n * sizeof(float)));
    CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}
