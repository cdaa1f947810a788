#include <cstdio>
#ifdef USE_CUDA
#include <cuda_runtime.h>
void launch_scale(float* d, int n);
#endif

int main() {
#ifdef USE_CUDA
    float* d = nullptr;
    cudaMalloc((void**)&d, 64 * sizeof(float));
    launch_scale(d, 64);
    cudaDeviceSynchronize();
    cudaFree(d);
    std::puts("gpu");
#else
    std::puts("cpu");
#endif
    return 0;
}
