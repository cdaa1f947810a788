// warp_hazards.cu - per-warp histogram, scan and vote statistics of a
// managed-memory array, timed on the device.
//
// Written the way a lot of CUDA code is: it assumes 32-lane warps (lane
// arithmetic with 32, shuffle loops from 16, 32-bit ballots, a volatile
// warp-synchronous tail), uses inline PTX with a fallback and a few
// NVIDIA-only features behind build options.  `hipport convert` finds each
// of these portability hazards.

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#if defined(__NVCC__)
#include <cooperative_groups/reduce.h>
#endif

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err = (call);                                             \
        if (err != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define BLOCK 256
#define WARPS_PER_BLOCK (BLOCK / 32)
#define BINS 16

#if defined(LEGACY_TEXTURE_PATH)
// Pre-CUDA 12 builds read the input through a texture reference.
texture<float, 1, cudaReadModeElementType> g_inputTex;
#endif

__device__ inline unsigned laneId()
{
#if defined(__CUDA_ARCH__)
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
#else
    return threadIdx.x % 32;
#endif
}

// Final 32 steps of a shared-memory tree reduction, relying on the lanes of
// the first warp running in lock step.
__device__ void warpReduceTail(volatile unsigned* s, int tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void __launch_bounds__(BLOCK, 2)
warpStats(const float* __restrict__ x, int n, unsigned* hist, float* scan,
          unsigned* positives, unsigned* fullWarps, long long* cycles)
{
    __shared__ unsigned laneHist[WARPS_PER_BLOCK][32];
    __shared__ unsigned blockPositives[BLOCK];

    const long long start = clock64();
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x >> 5;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = i < n ? x[i] : 0.0f;

    // Per-lane histogram bin counts, one row per warp.
    const int bin = min(BINS - 1, max(0, (int)((v + 1.0f) * 0.5f * BINS)));
    laneHist[warp][lane] = bin;

    // Inclusive warp scan.
    float sum = v;
    for (int d = 1; d < 32; d *= 2) {
        const float up = __shfl_up_sync(0xffffffff, sum, d);
        if (lane >= d) sum += up;
    }
    if (i < n) scan[i] = sum;

    // Vote: how many lanes before me hold a positive value?
    unsigned vote = __ballot_sync(0xffffffff, v > 0.0f);
    const unsigned lanesBelow = (1u << lane) - 1;
    const int rank = __popc(vote & lanesBelow);
    if (vote == 0xffffffff && lane == 0) atomicAdd(fullWarps, 1u);
    blockPositives[threadIdx.x] = v > 0.0f ? 1u : 0u;
    (void)rank;

    // The last lane publishes the warp's histogram of bins.
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    tile.sync();
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
    if (lane == 31) {
        for (int l = 0; l < 32; ++l) atomicAdd(&hist[laneHist[warp][l]], 1u);
    }
    __syncthreads();

    for (int s = BLOCK / 2; s > 32; s /= 2) {
        if (threadIdx.x < s) blockPositives[threadIdx.x] += blockPositives[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x < 32) warpReduceTail(blockPositives, threadIdx.x);
    if (threadIdx.x == 0) atomicAdd(positives, blockPositives[0]);

#if defined(__NVCC__)
    const int tileCount = cg::reduce(tile, (int)(v > 0.0f), cg::plus<int>());
    (void)tileCount;
#endif
    if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;

#if defined(USE_DYNAMIC_PARALLELISM)
    // Requires -rdc=true: re-run an empty block for the statistics epilogue.
    if (threadIdx.x == 0 && blockIdx.x == 0) warpStats<<<1, BLOCK>>>(x, 0, hist, scan, positives,
                                                                     fullWarps, cycles);
#endif
}

int main()
{
    int device = 0;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    printf("%s: compute capability %d.%d, %zu bytes shared memory per SM\n", prop.name,
           prop.major, prop.minor, (size_t)prop.sharedMemPerMultiprocessor);

    const int n = 1 << 20;
    const int grid = (n + BLOCK - 1) / BLOCK;
    float* x = nullptr;
    CUDA_CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    for (int i = 0; i < n; ++i) x[i] = (float)((i * 37) % 200) / 100.0f - 1.0f;
#if defined(__NVCC__) && CUDART_VERSION >= 13000
    // CUDA 13 names the target of a hint with a cudaMemLocation.
    cudaMemLocation here = {};
    here.type = cudaMemLocationTypeDevice;
    here.id = device;
    CUDA_CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, here));
    CUDA_CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), here, 0, cudaStreamPerThread));
#else
    CUDA_CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, device));
    CUDA_CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), device, cudaStreamPerThread));
#endif

    unsigned *hist, *positives, *fullWarps;
    float* scan;
    long long* cycles;
    CUDA_CHECK(cudaMalloc(&hist, BINS * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&positives, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&fullWarps, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&scan, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&cycles, grid * sizeof(long long)));
    CUDA_CHECK(cudaMemsetAsync(hist, 0, BINS * sizeof(unsigned), cudaStreamPerThread));
    CUDA_CHECK(cudaMemsetAsync(positives, 0, sizeof(unsigned), cudaStreamPerThread));
    CUDA_CHECK(cudaMemsetAsync(fullWarps, 0, sizeof(unsigned), cudaStreamPerThread));

    // Capture the launch into a graph so it can be replayed cheaply.
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal));
    warpStats<<<grid, BLOCK, 0, cudaStreamPerThread>>>(x, n, hist, scan, positives, fullWarps,
                                                       cycles);
    CUDA_CHECK(cudaStreamEndCapture(cudaStreamPerThread, &graph));
#if defined(__NVCC__) && CUDART_VERSION >= 11070
    const unsigned long long flags = cudaGraphInstantiateFlagUseNodePriority;
#else
    const unsigned long long flags = 0;
#endif
    CUDA_CHECK(cudaGraphInstantiateWithFlags(&exec, graph, flags));
    CUDA_CHECK(cudaGraphLaunch(exec, cudaStreamPerThread));
    CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));

    std::vector<unsigned> h_hist(BINS);
    unsigned h_positives = 0, h_full = 0;
    long long h_cycles = 0;
    CUDA_CHECK(cudaMemcpy(h_hist.data(), hist, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&h_positives, positives, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&h_full, fullWarps, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&h_cycles, cycles, sizeof(long long), cudaMemcpyDeviceToHost));
    printf("positives=%u full warps=%u block 0: %lld cycles\n", h_positives, h_full, h_cycles);

    unsigned expected = 0;
    for (int i = 0; i < n; ++i) expected += x[i] > 0.0f;
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaGraphDestroy(graph));
    CUDA_CHECK(cudaFree(cycles));
    CUDA_CHECK(cudaFree(scan));
    CUDA_CHECK(cudaFree(fullWarps));
    CUDA_CHECK(cudaFree(positives));
    CUDA_CHECK(cudaFree(hist));
    CUDA_CHECK(cudaFree(x));
    const bool ok = expected == h_positives;
    printf("%s\n", ok ? "PASSED" : "FAILED");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
