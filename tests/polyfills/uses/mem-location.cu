// CUDA 13's prefetch and advice with a cudaMemLocation, to a device and to the host.
#include <cuda_runtime.h>

cudaError_t place(float* managed, size_t bytes, int device, cudaStream_t stream) {
    cudaMemLocation gpu = {};
    gpu.type = cudaMemLocationTypeDevice;
    gpu.id = device;
    cudaMemLocation host = {};
    host.type = cudaMemLocationTypeHost;
    cudaError_t status = cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, gpu);
    if (status != cudaSuccess) return status;
    cudaMemAdvise(managed, bytes, cudaMemAdviseSetAccessedBy, host);
    status = cudaMemPrefetchAsync(managed, bytes, gpu, 0, stream);
    if (status != cudaSuccess) return status;
    return cudaMemPrefetchAsync(managed, bytes, host, 0);
}
