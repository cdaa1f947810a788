#include <cuda_runtime.h>

struct Buffer { void* ptr; size_t size; };

// The project's overload of cudaMalloc for its own buffer type.
inline cudaError_t cudaMalloc(Buffer& b, size_t n) {
    b.size = n;
    return cudaMalloc(&b.ptr, n);
}

void allocate(Buffer& buf, float** raw) {
    cudaMalloc(buf, 64);
    cudaMalloc((void**)raw, 64);
}
