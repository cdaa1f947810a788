// __stcs of scalars (a literal converted to the element type) and a vector type.
#include <cuda_runtime.h>

__global__ void streaming_writes(float* out, float4* out4, short* small, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __stcs(out + i, 1.5f * i);
        __stcs(out + i, 0);
        __stcs(&out4[i], make_float4(0.f, 1.f, 2.f, 3.f));
        __stcs(small + i, (short)i);
    }
}
