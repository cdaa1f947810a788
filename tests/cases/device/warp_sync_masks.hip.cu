// Warp votes and shuffles over the lanes of a mask (issue 26): kept as they
// were, none of these calls compiles on HIP 5.2 or ROCm 6.4.
#include <hip/hip_runtime.h>

#define FULL_WARP 0xffffffffu
#define __shfl_up(v, d) __shfl_up(v, d)
#define SHFL_DOWN_IN(m, v, d) __shfl_down(v, d)

__device__ int scan_step(int v, int lane)
{
    for (int d = 1; d < warpSize; d *= 2) {
        int up = __shfl_up(v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void compact(const int* in, int* out, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    unsigned long long active = __ballot(i < n);
    if (i < n) {
        int keep = in[i] > 0;
        unsigned long long kept = __ballot(keep);
        int any = __any(keep);
        int all = __all(keep);
        int first = __shfl(in[i], 0);
        int next = __shfl_down(in[i], 1);
        int mixed = __shfl_xor(in[i], 1);
        int down = SHFL_DOWN_IN(active, in[i], 2);
        out[i] = first + next + mixed + down + scan_step(keep, lane) + any + all;
        if (lane == 0) atomicAdd(count, __popcll(kept));
    }
}
