// Overlapping copies and kernels on several streams, timed with events.
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>

__global__ void twice(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

float pipeline(const float* host_in, float* host_out, int n, int chunks)
{
    cudaStream_t streams[4];
    for (int s = 0; s < 4; ++s)
        cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);

    float* pinned = nullptr;
    cudaMallocHost(reinterpret_cast<void**>(&pinned), n * sizeof(float));
    float* dev = nullptr;
    cudaMalloc(&dev, n * sizeof(float));

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreateWithFlags(&stop, cudaEventBlockingSync);
    cudaEventRecord(start, 0);

    const int per = n / chunks;
    for (int c = 0; c < chunks; ++c) {
        cudaStream_t st = streams[c % 4];
        cudaMemcpyAsync(dev + c * per, host_in + c * per, per * sizeof(float),
                        cudaMemcpyHostToDevice, st);
        twice<<<(per + 255) / 256, 256, 0, st>>>(dev + c * per, per);
        cudaMemcpyAsync(pinned + c * per, dev + c * per, per * sizeof(float),
                        cudaMemcpyDeviceToHost, st);
    }
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);

    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    for (int i = 0; i < n; ++i) host_out[i] = pinned[i];

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    for (int s = 0; s < 4; ++s) cudaStreamDestroy(streams[s]);
    cudaFreeHost(pinned);
    cudaFree(dev);
    return ms;
}
