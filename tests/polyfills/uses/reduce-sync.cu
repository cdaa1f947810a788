// __reduce_*_sync over a whole warp, a partial mask and an active mask.
#include <cuda_runtime.h>

__global__ void warp_stats(const int* values, const unsigned* flags, int* sums, unsigned* bits,
                           int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    int v = i < n ? values[i] : 0;
    unsigned f = i < n ? flags[i] : 0u;
    int total = __reduce_add_sync(0xffffffff, v);
    int low = __reduce_min_sync(0xffffffff, v);
    int high = __reduce_max_sync(0xffffffffu, v);
    unsigned utotal = __reduce_add_sync(0xffffffff, f);
    unsigned ulow = __reduce_min_sync(0xffffffff, f) + __reduce_max_sync(0xffffffff, f);
    unsigned common = __reduce_and_sync(0xffffffff, f);
    unsigned any = __reduce_or_sync(0xffffffff, f);
    unsigned parity = __reduce_xor_sync(0xffffffff, f);
    if (lane < 16) {
        total += __reduce_add_sync(0x0000ffff, v);
    }
    if (v > 0) {
        total += __reduce_add_sync(__activemask(), v);
    }
    if (lane == 0) {
        sums[i / 32] = total + low + high;
        bits[i / 32] = utotal ^ ulow ^ common ^ any ^ parity;
    }
}
