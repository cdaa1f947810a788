// Block-scope atomics on shared and global memory.
#include <cuda_runtime.h>

__global__ void tally(const int* values, int* totals, unsigned* flags, float* sums,
                      unsigned long long* wide) {
    __shared__ int count;
    __shared__ unsigned bits;
    if (threadIdx.x == 0) {
        count = 0;
        bits = 0;
    }
    __syncthreads();
    const int v = values[blockIdx.x * blockDim.x + threadIdx.x];
    atomicAdd_block(&count, 1);
    atomicSub_block(&count, v & 1);
    atomicOr_block(&bits, 1u << (threadIdx.x % 32));
    atomicAnd_block(&bits, ~0u);
    atomicXor_block(&bits, 0u);
    atomicMin_block(&totals[0], v);
    atomicMax_block(&totals[1], v);
    atomicExch_block(&totals[2], v);
    atomicCAS_block(&totals[3], 0, v);
    atomicInc_block(&flags[0], 100u);
    atomicDec_block(&flags[1], 100u);
    atomicAdd_block(&sums[blockIdx.x], 0.5f);
    atomicCAS_block(wide, 0ull, 1ull);
    __syncthreads();
    if (threadIdx.x == 0) {
        totals[4 + blockIdx.x] = count + (int)bits;
    }
}
