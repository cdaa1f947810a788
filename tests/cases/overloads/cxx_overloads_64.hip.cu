// hipport-flags: --rocm-version=6.4
// CUDA's C++ convenience overloads that HIP lacks: kernels passed to the
// cudaFunc* calls and cudaLaunchKernel, cudaHostGetDevicePointer's T**, and
// the flags forms of cudaEventCreate and cudaGraphInstantiate.
#include <hip/hip_runtime.h>

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
    hipFuncSetAttribute((const void*)scale, hipFuncAttributeMaxDynamicSharedMemorySize, 1024);
    hipFuncSetAttribute((const void*)fill<float, 128>, hipFuncAttributePreferredSharedMemoryCarveout, 50);
    hipFuncSetCacheConfig((const void*)scale, hipFuncCachePreferL1);
    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, (const void*)scale);
    hipFuncGetAttributes(&attr, (const void*)fill<int, 64>);  // already cast: kept

    Buffers b;
    hipHostMalloc(&b.host, n * sizeof(float), hipHostMallocMapped);
    hipHostGetDevicePointer((void**)&b.mapped, b.host, 0);
    float* alias = nullptr;
    hipHostGetDevicePointer((void**)&alias, b.host, 0);    // already cast: kept

    hipEvent_t start, stop;
    hipEventCreate(&start);
    hipEventCreateWithFlags(&stop, hipEventDisableTiming);

    float a = 2.0f;
    void* args[] = {&b.mapped, &a, &n};
    hipEventRecord(start, 0);
    hipLaunchKernel((const void*)scale, dim3((n + 255) / 256), dim3(256), args, 0, 0);
    hipEventRecord(stop, 0);

    hipGraph_t graph;
    hipGraphExec_t exec;
    hipGraphCreate(&graph, 0);
    hipGraphInstantiateWithFlags(&exec, graph, 0);
    hipGraphExec_t legacy;
    hipGraphInstantiate(&legacy, graph, nullptr, nullptr, 0);

    float* pitched = nullptr;
    size_t pitch = 0;
    hipMallocPitch(&pitched, &pitch, n * sizeof(float), 4);  // T** from ROCm 6.4 on

    hipGraphExecDestroy(legacy);
    hipGraphExecDestroy(exec);
    hipGraphDestroy(graph);
    hipFree(pitched);
    hipHostFree(b.host);
    return hipEventSynchronize(stop) == hipSuccess ? 0 : 1;
}
