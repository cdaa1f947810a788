// reduction.cu - weighted sum and sum of squares of a large array.
//
// Each block reduces its slice with warp shuffles, combines the per-warp
// partials through dynamic shared memory and then does a single atomicAdd
// into the global result.

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err = (call);                                             \
        if (err != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define NUM_WEIGHTS 16
#define MAX_WARPS_PER_BLOCK 32

// Periodic weights, uploaded once with cudaMemcpyToSymbol.
__constant__ float c_weights[NUM_WEIGHTS];

__device__ inline float warpReduceSum(float v)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffff, v, offset);
    }
    return v;
}

__device__ inline double atomicAddDouble(double* addr, double val)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
    // Native double atomicAdd exists from sm_60 (Pascal) onwards.
    return atomicAdd(addr, val);
#else
    unsigned long long* p = reinterpret_cast<unsigned long long*>(addr);
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed,
                        __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
#endif
}

__global__ void weightedSum(const float* __restrict__ x, size_t n,
                            float* result, double* sumSq)
{
    extern __shared__ float smem[];   // one float per warp

    float acc = 0.0f;
    float sq = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)blockDim.x * gridDim.x) {
        const float v = __ldg(&x[i]);
        acc += v * c_weights[i % NUM_WEIGHTS];
        sq += v * v;
    }

    const int lane = threadIdx.x % warpSize;
    const int warp = threadIdx.x / warpSize;
    const int numWarps = (blockDim.x + warpSize - 1) / warpSize;

    acc = warpReduceSum(acc);
    sq = warpReduceSum(sq);
    if (lane == 0) {
        smem[warp] = acc;
    }
    __syncthreads();

    if (warp == 0) {
        acc = (lane < numWarps) ? smem[lane] : 0.0f;
        acc = warpReduceSum(acc);
        if (lane == 0) {
            atomicAdd(result, acc);
        }
    }
    // Sum of squares goes straight from each warp leader to global memory.
    if (lane == 0) {
        atomicAddDouble(sumSq, (double)sq);
    }
}

int main()
{
    // The runtime reports its version as 1000 * major + 10 * minor.
    int runtimeVersion = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&runtimeVersion));
    printf("running on CUDA runtime %d.%d\n", runtimeVersion / 1000,
           (runtimeVersion % 1000) / 10);

    const size_t n = 10000000;
    std::vector<float> h_x(n);
    for (size_t i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>((i * 7919) % 101) / 101.0f - 0.5f;
    }
    float h_w[NUM_WEIGHTS];
    for (int k = 0; k < NUM_WEIGHTS; ++k) {
        h_w[k] = 1.0f / (1.0f + k);
    }

    float* d_x = nullptr;
    float* d_result = nullptr;
    double* d_sumSq = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_result, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sumSq, sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float),
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_weights, h_w, sizeof(h_w)));
    CUDA_CHECK(cudaMemset(d_result, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_sumSq, 0, sizeof(double)));

    // Let the runtime pick a block size; reserve shared memory for the
    // worst case of MAX_WARPS_PER_BLOCK warps.
    int minGrid = 0, block = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(
        &minGrid, &block, weightedSum,
        MAX_WARPS_PER_BLOCK * sizeof(float), 0));
    const int grid = minGrid > 0 ? minGrid : 1;
    const size_t smemBytes = MAX_WARPS_PER_BLOCK * sizeof(float);
    printf("cudaOccupancyMaxPotentialBlockSize: grid=%d block=%d\n",
           grid, block);

    weightedSum<<<grid, block, smemBytes>>>(d_x, n, d_result, d_sumSq);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float gpuSum = 0.0f;
    double gpuSq = 0.0;
    CUDA_CHECK(cudaMemcpy(&gpuSum, d_result, sizeof(float),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&gpuSq, d_sumSq, sizeof(double),
                          cudaMemcpyDeviceToHost));

    double cpuSum = 0.0, cpuSq = 0.0;
    for (size_t i = 0; i < n; ++i) {
        cpuSum += (double)h_x[i] * h_w[i % NUM_WEIGHTS];
        cpuSq += (double)h_x[i] * h_x[i];
    }

    const double errSum = std::fabs(gpuSum - cpuSum) / (std::fabs(cpuSum) + 1.0);
    const double errSq = std::fabs(gpuSq - cpuSq) / (std::fabs(cpuSq) + 1.0);
    printf("weighted sum: gpu=%.6f cpu=%.6f (rel err %.2e)\n",
           gpuSum, cpuSum, errSum);
    printf("sum of squares: gpu=%.3f cpu=%.3f (rel err %.2e)\n",
           gpuSq, cpuSq, errSq);

    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_result));
    CUDA_CHECK(cudaFree(d_sumSq));
    CUDA_CHECK(cudaDeviceReset());

    const bool ok = errSum < 1e-3 && errSq < 1e-4;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
