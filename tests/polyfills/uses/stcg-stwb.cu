// __stcg and __stwb of a scalar and a vector type.
#include <cuda_runtime.h>

__global__ void cached_writes(unsigned long long* out, uchar4* out4, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __stcg(out + i, 7ull * i);
        __stwb(out + i, 8ull * i);
        __stcg(out4 + i, make_uchar4(1, 2, 3, 4));
        __stwb(out4 + i, make_uchar4(4, 3, 2, 1));
    }
}
