// __syncwarp between the phases of a warp-level exchange through shared memory.
#include <cuda_runtime.h>

__global__ void rotate_within_warps(const int* in, int* out) {
    __shared__ int slots[256];
    const unsigned lane = threadIdx.x % 32;
    slots[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncwarp();
    int next = slots[threadIdx.x - lane + (lane + 1) % 32];
    __syncwarp(0xffffffff);
    slots[threadIdx.x] = next;
    __syncwarp(__activemask());
    out[blockIdx.x * blockDim.x + threadIdx.x] = slots[threadIdx.x];
}
