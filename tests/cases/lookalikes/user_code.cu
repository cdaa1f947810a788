// Nothing here is a CUDA API: the file must come out byte-for-byte unchanged.
#include <cstdio>
#include <vector>
#include "my_cuda_utils.h"

namespace gpu {
int cudaMalloc(void** p, unsigned long n);  // the project's own wrapper
}

struct Allocator {
    int (*cudaMalloc)(void**, unsigned long);
    int cudaFree;
};

static int my_cudaMalloc(void** p, unsigned long n) { return gpu::cudaMalloc(p, n); }

int use(Allocator& a, Allocator* b, void** p)
{
    const char* msg = "cudaMalloc failed: cudaErrorMemoryAllocation";
    const char* raw = R"(cudaFree(p); cudaStream_t s;)";
    char c = 'c';
    // cudaMalloc(p, 16);
    /* cudaDeviceSynchronize(); */
    int r = my_cudaMalloc(p, 16) + a.cudaMalloc(p, 16) + b->cudaFree + gpu::cudaMalloc(p, 8);
    std::vector<int> cudaStreams_not_a_type;
    std::printf("%s %s %c %d\n", msg, raw, c, r);
    return r;
}
