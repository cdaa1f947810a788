// A host-only C++ file that uses the runtime API, as NVIDIA's samples do:
// CMake compiles it as CXX.
#include <cstdio>
#include <cuda_runtime.h>
#include "scale.h"

int main() {
    float* d = nullptr;
    if (cudaMalloc(&d, 1024 * sizeof(float)) != cudaSuccess) return 1;
    if (scale(d, 2.0f, 1024) != cudaSuccess) return 1;
    cudaFree(d);
    std::puts("ok");
    return 0;
}
