// Device-side cuRAND: one generator state per thread.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

__global__ void setup(hiprandState* states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    hiprand_init(seed, id, 0, &states[id]);
}

__global__ void monte_carlo_pi(hiprandState* states, unsigned int* hits, int samples)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    hiprandState local = states[id];
    unsigned int count = 0;
    for (int i = 0; i < samples; ++i) {
        float x = hiprand_uniform(&local);
        float y = hiprand_uniform(&local);
        if (x * x + y * y <= 1.0f) ++count;
    }
    states[id] = local;
    atomicAdd(hits, count);
}
