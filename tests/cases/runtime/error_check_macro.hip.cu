// Error handling the way most CUDA projects do it: a checking macro whose
// body calls the runtime, and status comparisons in host code.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(expr)                                                   \
    do {                                                                   \
        hipError_t status_ = (expr);                                      \
        if (status_ != hipSuccess) {                                      \
            std::fprintf(stderr, "CUDA error %s at %s:%d (%s)\n",          \
                         hipGetErrorName(status_), __FILE__, __LINE__,    \
                         hipGetErrorString(status_));                     \
            std::exit(1);                                                  \
        }                                                                  \
    } while (0)

static const char* describe(hipError_t e)
{
    switch (e) {
    case hipSuccess: return "ok";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidValue: return "invalid value (cudaErrorInvalidValue)";
    default: return hipGetErrorString(e);
    }
}

int allocate(float** out, size_t n)
{
    hipError_t err = hipMalloc(reinterpret_cast<void**>(out), n * sizeof(float));
    if (err != hipSuccess) {
        std::fprintf(stderr, "%s\n", describe(err));
        hipGetLastError();  // clear the sticky error
        return -1;
    }
    CUDA_CHECK(hipMemset(*out, 0, n * sizeof(float)));
    CUDA_CHECK(hipDeviceSynchronize());
    return 0;
}
