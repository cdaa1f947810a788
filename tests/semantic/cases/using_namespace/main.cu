#include <cuda_runtime.h>

struct Counter { int value; };
struct Buffer { void* ptr; };

namespace wrap {
inline cudaError_t cudaGetDeviceCount(Counter* c) { c->value = 1; return cudaSuccess; }
}
using namespace wrap;

namespace pool {
inline void cudaFree(Buffer& b) { b.ptr = nullptr; }
inline void release(Buffer& b) { cudaFree(b); }
}

int devices(Counter* counter) {
    int n = 0;
    cudaGetDeviceCount(counter);
    cudaGetDeviceCount(&n);
    return n;
}
