// Overlapping copies and kernels on several streams, timed with events.
#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

__global__ void twice(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

float pipeline(const float* host_in, float* host_out, int n, int chunks)
{
    hipStream_t streams[4];
    for (int s = 0; s < 4; ++s)
        hipStreamCreateWithFlags(&streams[s], hipStreamNonBlocking);

    float* pinned = nullptr;
    hipHostMalloc(reinterpret_cast<void**>(&pinned), n * sizeof(float));
    float* dev = nullptr;
    hipMalloc(&dev, n * sizeof(float));

    hipEvent_t start, stop;
    hipEventCreate(&start);
    hipEventCreateWithFlags(&stop, hipEventBlockingSync);
    hipEventRecord(start, 0);

    const int per = n / chunks;
    for (int c = 0; c < chunks; ++c) {
        hipStream_t st = streams[c % 4];
        hipMemcpyAsync(dev + c * per, host_in + c * per, per * sizeof(float),
                        hipMemcpyHostToDevice, st);
        twice<<<(per + 255) / 256, 256, 0, st>>>(dev + c * per, per);
        hipMemcpyAsync(pinned + c * per, dev + c * per, per * sizeof(float),
                        hipMemcpyDeviceToHost, st);
    }
    hipEventRecord(stop, 0);
    hipEventSynchronize(stop);

    float ms = 0.0f;
    hipEventElapsedTime(&ms, start, stop);
    for (int i = 0; i < n; ++i) host_out[i] = pinned[i];

    hipEventDestroy(start);
    hipEventDestroy(stop);
    for (int s = 0; s < 4; ++s) hipStreamDestroy(streams[s]);
    hipHostFree(pinned);
    hipFree(dev);
    return ms;
}
