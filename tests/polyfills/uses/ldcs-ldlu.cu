// __ldcs and __ldlu on scalars, a vector type and a pointer-sized integer.
#include <cuda_runtime.h>

__global__ void streaming_reads(const float* in, const float4* in4, const char* bytes,
                                const long long* wide, float* out, float4* out4, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __ldcs(in + i) + __ldlu(in + i) + __ldcs(bytes + i) + (float)__ldlu(wide + i);
        float4 a = __ldcs(in4 + i);
        float4 b = __ldlu(&in4[i]);
        out4[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
}
