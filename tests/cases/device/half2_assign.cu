// A braced list assigned to a __half2 is ambiguous with HIP's __half2
// (several assignment operators take a braced list): the type is named.
// Initialising one, or assigning an intrinsic's result, needs nothing.
#include <cuda_fp16.h>

__global__ void interleave(__half2* out, const __half* lo, const __half* hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 acc, window[2];
    half2 first = {lo[i], hi[i]};
    acc = {lo[i], hi[i]};
    window[0] = {hi[i], lo[i]};
    window[1] = {};
    out[i] = {lo[i], lo[i]};
    acc = __hadd2(acc, first);
    float2 f;
    f = {1.0f, 2.0f};
    out[i] = __hadd2(__hadd2(acc, window[0]), __hadd2(window[1], __float22half2_rn(f)));
}
