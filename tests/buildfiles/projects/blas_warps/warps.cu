// Warp intrinsics ROCm 7 declares itself (__syncwarp, __reduce_add_sync,
// __match_any_sync) and one whose mask hipport drops (__shfl_xor_sync).
#include <cuda_runtime.h>

__global__ void warp_sums(const int* in, int* sums, unsigned* peers) {
    __shared__ int staged[256];
    const int tid = threadIdx.x;
    staged[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncwarp();
    int v = staged[tid];
    int total = __reduce_add_sync(0xffffffffu, v);
    unsigned same = __match_any_sync(0xffffffffu, v);
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    sums[blockIdx.x * blockDim.x + tid] = total + v;
    peers[blockIdx.x * blockDim.x + tid] = same;
}

int main() {
    const int blocks = 4;
    int *in, *sums;
    unsigned* peers;
    cudaMalloc(&in, sizeof(int) * 256 * blocks);
    cudaMalloc(&sums, sizeof(int) * 256 * blocks);
    cudaMalloc(&peers, sizeof(unsigned) * 256 * blocks);
    warp_sums<<<blocks, 256>>>(in, sums, peers);
    cudaError_t err = cudaDeviceSynchronize();
    cudaFree(in); cudaFree(sums); cudaFree(peers);
    return err == cudaSuccess ? 0 : 1;
}
