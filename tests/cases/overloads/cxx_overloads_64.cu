// hipport-flags: --rocm-version=6.4
// CUDA's C++ convenience overloads that HIP lacks: kernels passed to the
// cudaFunc* calls and cudaLaunchKernel, cudaHostGetDevicePointer's T**, and
// the flags forms of cudaEventCreate and cudaGraphInstantiate.
#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

template <typename T, int Block>
__global__ void fill(T* x, T v) { x[blockIdx.x * Block + threadIdx.x] = v; }

struct Buffers { float* host; float* mapped; };

int run(int n)
{
    cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
    cudaFuncSetAttribute(fill<float, 128>, cudaFuncAttributePreferredSharedMemoryCarveout, 50);
    cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, scale);
    cudaFuncGetAttributes(&attr, (const void*)fill<int, 64>);  // already cast: kept

    Buffers b;
    cudaHostAlloc(&b.host, n * sizeof(float), cudaHostAllocMapped);
    cudaHostGetDevicePointer(&b.mapped, b.host, 0);
    float* alias = nullptr;
    cudaHostGetDevicePointer((void**)&alias, b.host, 0);    // already cast: kept

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop, cudaEventDisableTiming);

    float a = 2.0f;
    void* args[] = {&b.mapped, &a, &n};
    cudaEventRecord(start, 0);
    cudaLaunchKernel(scale, dim3((n + 255) / 256), dim3(256), args, 0, 0);
    cudaEventRecord(stop, 0);

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaGraphCreate(&graph, 0);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphExec_t legacy;
    cudaGraphInstantiate(&legacy, graph, nullptr, nullptr, 0);

    float* pitched = nullptr;
    size_t pitch = 0;
    cudaMallocPitch(&pitched, &pitch, n * sizeof(float), 4);  // T** from ROCm 6.4 on

    cudaGraphExecDestroy(legacy);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(pitched);
    cudaFreeHost(b.host);
    return cudaEventSynchronize(stop) == cudaSuccess ? 0 : 1;
}
