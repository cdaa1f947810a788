// float -> bfloat16 in each rounding mode, on the device and on the host.
#include <cuda_bf16.h>

__global__ void quantize(const float* in, __nv_bfloat16* nearest, __nv_bfloat16* truncated,
                         __nv_bfloat16* down, __nv_bfloat16* up, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        nearest[i] = __float2bfloat16_rn(in[i]);
        truncated[i] = __float2bfloat16_rz(in[i]);
        down[i] = __float2bfloat16_rd(in[i]);
        up[i] = __float2bfloat16_ru(in[i]);
    }
}

__nv_bfloat16 host_scale() { return __float2bfloat16_rn(0.125f); }
