// Host code only: no kernel, but the runtime API, which nvcc declares through
// its implicit #include <cuda_runtime.h>.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <vector>

int copy_round_trip(std::vector<float>& host)
{
    float* device = nullptr;
    size_t bytes = host.size() * sizeof(float);
    if (hipMalloc(reinterpret_cast<void**>(&device), bytes) != hipSuccess) {
        std::printf("cudaMalloc failed\n");
        return -1;
    }
    hipMemcpy(device, host.data(), bytes, hipMemcpyHostToDevice);
    hipMemcpy(host.data(), device, bytes, hipMemcpyDeviceToHost);
    hipFree(device);
    return 0;
}
