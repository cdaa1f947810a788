#include <cuda_runtime.h>

__global__ void reduce(float* out, const float* in) {
    float v = in[threadIdx.x];
#if defined(__CUDA_ARCH__)
    v += __shfl_down_sync(0xffffffffu, v, 1);
#else
    v += 0.0f;
#endif
#if 0
    cudaThisIsNeverCompiled(v);
#endif
    out[threadIdx.x] = v;
}

void launch(float* out, const float* in) {
    reduce<<<1, 32>>>(out, in);
    cudaDeviceSynchronize();
}
