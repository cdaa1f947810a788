#include <cstdio>
#include <cuda_runtime.h>

cudaError_t launch_fill(int* out, int value, int n);

int main()
{
    int* out = nullptr;
    if (cudaMalloc(&out, 32 * sizeof(int)) != cudaSuccess) {
        std::printf("no device\n");
        return 0;
    }
    cudaError_t status = launch_fill(out, 7, 32);
    cudaFree(out);
    std::printf("%s\n", cudaGetErrorString(status));
    return 0;
}
