// bfloat16 pairs from floats.
#include <cuda_bf16.h>

__global__ void pack(const float* a, const float* b, __nv_bfloat162* both, __nv_bfloat162* pairs,
                     int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        both[i] = __float2bfloat162_rn(a[i]);
        pairs[i] = __floats2bfloat162_rn(a[i], b[i]);
    }
}

__nv_bfloat162 host_ones() { return __float2bfloat162_rn(1.0f); }
