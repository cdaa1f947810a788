// make_bfloat162 from two bfloat16 values.
#include <cuda_bf16.h>

__global__ void interleave(const __nv_bfloat16* re, const __nv_bfloat16* im, __nv_bfloat162* out,
                           int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = make_bfloat162(re[i], im[i]);
    }
}
