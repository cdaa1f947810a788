// main.cu - overlap host<->device copies with compute using several streams.
//
// The input is split into chunks; each chunk is copied with cudaMemcpyAsync,
// scaled by a kernel and copied back, all on one of NUM_STREAMS
// non-blocking streams so transfers and kernels of different chunks overlap.

#include <cstdio>
#include <cstdlib>
#include <cmath>

#include "pipeline.cuh"

constexpr int NUM_STREAMS = 4;
constexpr int THREADS = 256;

int main()
{
    const size_t n = size_t(1) << 24;          // 16M floats
    const size_t chunks = 16;
    const size_t chunkElems = n / chunks;
    const size_t chunkBytes = chunkElems * sizeof(float);
    const float factor = 2.5f;

    // Pinned host buffers are required for truly asynchronous copies.
    float* h_in = nullptr;
    float* h_out = nullptr;
    CUDA_CHECK(cudaMallocHost(&h_in, n * sizeof(float)));
    CUDA_CHECK(cudaHostAlloc((void**)&h_out, n * sizeof(float),
                             cudaHostAllocDefault));

    for (size_t i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(i % 1000) * 0.001f;
    }

    float* d_buf = nullptr;
    CUDA_CHECK(cudaMalloc(&d_buf, n * sizeof(float)));

    cudaStream_t streams[NUM_STREAMS];
    for (int s = 0; s < NUM_STREAMS; ++s) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));

    // Clear the device buffer first; cudaMemsetAsync is ordered in stream 0.
    CUDA_CHECK(cudaMemsetAsync(d_buf, 0, n * sizeof(float), streams[0]));
    CUDA_CHECK(cudaStreamSynchronize(streams[0]));

    CUDA_CHECK(cudaEventRecord(start, 0));
    for (size_t c = 0; c < chunks; ++c) {
        cudaStream_t st = streams[c % NUM_STREAMS];
        const size_t offset = c * chunkElems;

        CUDA_CHECK(cudaMemcpyAsync(d_buf + offset, h_in + offset, chunkBytes,
                                   cudaMemcpyHostToDevice, st));

        const unsigned int grid = blocksFor<4>(chunkElems, THREADS);
        scale<float, 4><<<grid, THREADS, 0, st>>>(d_buf + offset, factor,
                                                  chunkElems);
        CUDA_CHECK(cudaGetLastError());

        CUDA_CHECK(cudaMemcpyAsync(h_out + offset, d_buf + offset, chunkBytes,
                                   cudaMemcpyDeviceToHost, st));
    }
    for (int s = 0; s < NUM_STREAMS; ++s) {
        CUDA_CHECK(cudaStreamSynchronize(streams[s]));
    }
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    const double gb = 2.0 * n * sizeof(float) / 1e9;
    printf("pipeline: %zu chunks on %d streams, %.3f ms (%.2f GB/s H2D+D2H)\n",
           chunks, NUM_STREAMS, ms, gb / (ms / 1e3));

    // Host check of every element.
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        const float expected = h_in[i] * factor + 1.0f;
        if (std::fabs(h_out[i] - expected) > 1e-5f) {
            if (bad < 5) {
                fprintf(stderr, "h_out[%zu] = %f, expected %f\n",
                        i, h_out[i], expected);
            }
            ++bad;
        }
    }

    // A double-precision launch of the same template, synchronous this time.
    double* d_dbl = nullptr;
    CUDA_CHECK(cudaMalloc(&d_dbl, 1024 * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_dbl, 0, 1024 * sizeof(double)));
    scale<double, 2><<<blocksFor<2>(1024, 128), 128>>>(d_dbl, 3.0, 1024);
    CUDA_CHECK(cudaGetLastError());
    double probe = 0.0;
    CUDA_CHECK(cudaMemcpy(&probe, d_dbl + 1023, sizeof(double),
                          cudaMemcpyDeviceToHost));
    if (probe != 1.0) {
        fprintf(stderr, "double kernel: got %f, expected 1.0\n", probe);
        ++bad;
    }

    // Cleanup: events, streams, then memory (cudaFreeHost for pinned memory).
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    for (int s = 0; s < NUM_STREAMS; ++s) {
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
    }
    CUDA_CHECK(cudaFree(d_dbl));
    CUDA_CHECK(cudaFree(d_buf));
    CUDA_CHECK(cudaFreeHost(h_in));
    CUDA_CHECK(cudaFreeHost(h_out));

    if (bad) {
        printf("FAILED (%zu errors)\n", bad);
        return EXIT_FAILURE;
    }
    printf("PASSED\n");
    return EXIT_SUCCESS;
}
