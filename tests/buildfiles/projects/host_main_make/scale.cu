#include "scale.h"

__global__ void scale_kernel(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= factor;
}

cudaError_t scale(float* data, float factor, int n) {
    scale_kernel<<<(n + 255) / 256, 256>>>(data, factor, n);
    return cudaGetLastError();
}
