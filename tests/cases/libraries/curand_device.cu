// Device-side cuRAND: one generator state per thread.
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void monte_carlo_pi(curandState* states, unsigned int* hits, int samples)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int count = 0;
    for (int i = 0; i < samples; ++i) {
        float x = curand_uniform(&local);
        float y = curand_uniform(&local);
        if (x * x + y * y <= 1.0f) ++count;
    }
    states[id] = local;
    atomicAdd(hits, count);
}
