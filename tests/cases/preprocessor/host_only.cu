// Host code only: no kernel, but the runtime API, which nvcc declares through
// its implicit #include <cuda_runtime.h>.
#include <cstdio>
#include <vector>

int copy_round_trip(std::vector<float>& host)
{
    float* device = nullptr;
    size_t bytes = host.size() * sizeof(float);
    if (cudaMalloc(reinterpret_cast<void**>(&device), bytes) != cudaSuccess) {
        std::printf("cudaMalloc failed\n");
        return -1;
    }
    cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost);
    cudaFree(device);
    return 0;
}
