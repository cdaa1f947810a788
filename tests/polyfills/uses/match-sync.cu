// __match_any_sync to elect one lane per key (aggregated atomics); __match_all_sync.
#include <cuda_runtime.h>

__global__ void histogram(const int* keys, const float* weights, int* counts, int* uniform,
                          int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    const int key = i < n ? keys[i] : -1;
    unsigned peers = __match_any_sync(0xffffffff, key);
    int leader = __ffs(peers) - 1;
    if (lane == leader && key >= 0) {
        atomicAdd(&counts[key], __popc(peers));
    }
    unsigned same_weight = __match_any_sync(__activemask(), weights[i % 7]);
    unsigned long long wide = __match_any_sync(0xffffffffu, (long long)key) | same_weight;
    int pred = 0;
    unsigned all = __match_all_sync(0xffffffff, key, &pred);
    __match_all_sync(0xffffffff, 1.0, &pred);
    if (lane == 0) {
        uniform[i / 32] = pred && all == 0xffffffff && wide != 0;
    }
}
