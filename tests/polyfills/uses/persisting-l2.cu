// Sizing the persisting L2 set-aside, and resetting it.
#include <cuda_runtime.h>

cudaError_t set_aside(int device, size_t wanted) {
    int max_persisting = 0, max_window = 0;
    cudaError_t status = cudaDeviceGetAttribute(&max_persisting,
                                                cudaDevAttrMaxPersistingL2CacheSize, device);
    if (status != cudaSuccess) return status;
    cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
    size_t size = wanted < (size_t)max_persisting ? wanted : (size_t)max_persisting;
    status = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, size);
    size_t granted = 0;
    cudaDeviceGetLimit(&granted, cudaLimitPersistingL2CacheSize);
    if (granted > (size_t)max_window) return cudaErrorInvalidValue;
    return status == cudaSuccess ? cudaCtxResetPersistingL2Cache() : status;
}
