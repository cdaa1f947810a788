// pipeline.cuh - kernels and helpers shared by the stream pipeline example.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstddef>

#include <cuda_runtime.h>
#include <cuda_runtime_api.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err = (call);                                             \
        if (err != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Small fused multiply-add helper; forced inline so the unrolled loop in
// scale() stays a straight sequence of FMAs.
template <typename T>
__device__ __forceinline__ T axpb(T x, T a, T b)
{
    return x * a + b;
}

// Scales a chunk in place: data[i] = data[i] * factor + 1.
// Each thread handles UNROLL elements spaced blockDim.x apart so that the
// accesses of a warp stay coalesced.
template <typename T, int UNROLL>
__global__ void scale(T* data, T factor, size_t n)
{
    const size_t base = static_cast<size_t>(blockIdx.x) * blockDim.x * UNROLL
                        + threadIdx.x;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
        const size_t i = base + static_cast<size_t>(u) * blockDim.x;
        if (i < n) {
            data[i] = axpb(data[i], factor, T(1));
        }
    }
}

// Number of blocks needed to cover n elements with the given unroll factor.
template <int UNROLL>
inline unsigned int blocksFor(size_t n, unsigned int threads)
{
    const size_t perBlock = static_cast<size_t>(threads) * UNROLL;
    return static_cast<unsigned int>((n + perBlock - 1) / perBlock);
}
