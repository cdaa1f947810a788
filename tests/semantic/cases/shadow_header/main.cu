#include <cuda_runtime.h>
#include "fakeblas.h"

int run(size_t n) {
    cublasHandle_t handle;
    cublasCreate(&handle);
    float* d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
        cudaLogFailure("cudaMalloc");
        return 1;
    }
    return cudaFree(d) == cudaSuccess ? 0 : 1;
}
