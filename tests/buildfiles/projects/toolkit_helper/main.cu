#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(int* out) { out[threadIdx.x] = (int)threadIdx.x; }

int main() {
    int* out = nullptr;
    cudaMalloc((void**)&out, 32 * sizeof(int));
    fill<<<1, 32>>>(out);
#ifdef HAVE_CUFILT
    std::puts("demangling with cufilt");
#endif
    cudaFree(out);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
