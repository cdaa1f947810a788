// __stwt: results and a completion flag written through to (host-mapped) memory.
#include <cuda_runtime.h>

__global__ void publish(double* result, short2* pairs, int* done) {
    __stwt(result + threadIdx.x, 2.0 * threadIdx.x);
    __stwt(pairs + threadIdx.x, make_short2(1, -1));
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_system();
        __stwt(done, 1);
    }
}
