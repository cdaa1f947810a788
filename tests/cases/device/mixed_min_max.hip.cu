// hipport-flags: --unsafe-fixes
// min/max of an unsigned and an int, or a size_t and an int: CUDA compares as
// C++ would (unsigned, 64-bit); HIP has no such overload and compares as double.
#include <hip/hip_runtime.h>

__global__ void clamp_tail(float* out, const float* in, size_t total, int chunk, int n)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    size_t begin = (size_t)tid * chunk;
    size_t end = max(total, (unsigned long)n);
    unsigned last = min(tid, (unsigned int)n);
    long offset = -1;
    int lanes = 32;
    int first = min(lanes, n);               // same types: unchanged
    long before = max(offset, (long)lanes);        // int widened to long
    for (size_t i = begin; i < min(end, total); ++i)
        out[i] = in[i] * last + first + before;
}
