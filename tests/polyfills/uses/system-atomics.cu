// System-scope wrapping counters: a ring index the host reads through mapped memory.
#include <cuda_runtime.h>

__global__ void produce(unsigned* head, unsigned* credits, int* slots, unsigned capacity) {
    const unsigned at = atomicInc_system(head, capacity - 1);
    slots[at] = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    atomicDec_system(credits, capacity);
}

int main() {
    unsigned* counters = nullptr;
    int* slots = nullptr;
    cudaHostAlloc((void**)&counters, 2 * sizeof(unsigned), cudaHostAllocMapped);
    cudaMalloc((void**)&slots, 64 * sizeof(int));
    produce<<<2, 32>>>(counters, counters + 1, slots, 64u);
    cudaDeviceSynchronize();
    cudaFreeHost(counters);
    cudaFree(slots);
    return 0;
}
