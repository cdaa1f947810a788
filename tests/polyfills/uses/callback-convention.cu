// A stream callback declared with CUDA's calling-convention macro.
#include <cstdio>
#include <cuda_runtime.h>

void CUDART_CB report(cudaStream_t stream, cudaError_t status, void* data) {
    (void)stream;
    std::printf("%s: %d\n", static_cast<const char*>(data), static_cast<int>(status));
}

cudaError_t enqueue(cudaStream_t stream) {
    static char name[] = "stream done";
    return cudaStreamAddCallback(stream, report, name, 0);
}
