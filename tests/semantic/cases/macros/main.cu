#include <cuda_runtime.h>
#include "wrappers.h"

#define ALLOC(p, n) cudaMalloc((void**)&(p), (n))
#define RELEASE(p) cudaFree(p)
#define ZERO_IMPL cudaMemset
#define ZERO(p, n) ZERO_IMPL((p), 0, (n))
#define REPORT(e) cudaReportError((int)(e))
#define NEVER_USED(s) cudaStreamSynchronize(s)

void fill(size_t n) {
    float *a = nullptr, *b = nullptr, *c = nullptr;
    ALLOC(a, n);
    ALLOC(b, n);
    ALLOC(c, n);
    ZERO(a, n);
    ZERO(b, n);
    REPORT(cudaGetLastError());
    RELEASE(a);
    RELEASE(b);
    RELEASE(c);
}
