// CUDA's integer min/max functions.
#include <cuda_runtime.h>

__global__ void clamp(const unsigned* a, const long long* b, const unsigned long long* c,
                      unsigned* out, long long* out2, unsigned long long* out3) {
    const unsigned i = threadIdx.x;
    out[i] = umin(umax(a[i], 16u), 4096u);
    out2[i] = llmin(llmax(b[i], -5ll), 5ll);
    out3[i] = ullmax(ullmin(c[i], 1ull << 40), 1ull);
}
