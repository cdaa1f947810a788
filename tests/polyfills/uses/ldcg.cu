// __ldcg on a scalar and a vector type.
#include <cuda_runtime.h>

__global__ void global_only_reads(const int* in, const double2* in2, int* out, double2* out2,
                                  int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = __ldcg(in + i) * 2;
        out2[i] = __ldcg(&in2[i]);
    }
}
