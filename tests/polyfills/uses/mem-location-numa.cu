// Prefetching to a host NUMA node (CUDA 13).
#include <cuda_runtime.h>

cudaError_t to_numa_node(const void* managed, size_t bytes, int node, cudaStream_t stream) {
    cudaMemLocation numa = {};
    numa.type = cudaMemLocationTypeHostNuma;
    numa.id = node;
    cudaError_t status = cudaMemPrefetchAsync(managed, bytes, numa, 0, stream);
    if (status != cudaSuccess) return status;
    numa.type = cudaMemLocationTypeHostNumaCurrent;
    return cudaMemAdvise(managed, bytes, cudaMemAdviseSetPreferredLocation, numa);
}
