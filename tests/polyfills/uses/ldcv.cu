// __ldcv: a flag polled while another agent writes it, and a vector type.
#include <cuda_runtime.h>

__global__ void wait_then_read(const unsigned* flag, const int4* data, int4* out) {
    while (__ldcv(flag) == 0) {
    }
    out[threadIdx.x] = __ldcv(data + threadIdx.x);
}
