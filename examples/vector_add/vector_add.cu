// vector_add.cu - element-wise c = a + b on the GPU.
//
// The classic first CUDA program: allocate device buffers with cudaMalloc,
// copy the inputs over, launch a 1-D grid, copy back with cudaMemcpy and
// verify on the host.

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

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

// One thread per element; a grid-stride loop keeps the kernel correct even
// when the grid is smaller than the problem.
__global__ void vectorAdd(const float* __restrict__ a,
                          const float* __restrict__ b,
                          float* __restrict__ c,
                          int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x) {
        c[i] = a[i] + b[i];
    }
}

static void printDevice(int dev)
{
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("Device %d: %s\n", dev, prop.name);
    printf("  compute capability : %d.%d\n", prop.major, prop.minor);
    printf("  multiprocessors    : %d\n", prop.multiProcessorCount);
    printf("  global memory      : %.1f MiB\n",
           prop.totalGlobalMem / (1024.0 * 1024.0));
    printf("  max threads/block  : %d\n", prop.maxThreadsPerBlock);
}

int main(int argc, char** argv)
{
    int n = (argc > 1) ? atoi(argv[1]) : (1 << 20);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [num_elements]\n", argv[0]);
        return EXIT_FAILURE;
    }
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);

    int deviceCount = 0;
    CUDA_CHECK(cudaGetDeviceCount(&deviceCount));
    if (deviceCount == 0) {
        printf("No CUDA device found (cudaGetDeviceCount returned 0)\n");
        return EXIT_FAILURE;
    }
    CUDA_CHECK(cudaSetDevice(0));
    printDevice(0);

    std::vector<float> h_a(n), h_b(n), h_c(n, 0.0f);
    for (int i = 0; i < n; ++i) {
        h_a[i] = static_cast<float>(i) * 0.5f;
        h_b[i] = static_cast<float>(n - i) * 0.25f;
    }

    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc((void**)&d_c, bytes));

    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    const int block = 256;
    const int grid = (n + block - 1) / block;
    printf("Launching vectorAdd with %d blocks of %d threads\n", grid, block);

    vectorAdd<<<grid, block>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // copy back with cudaMemcpy (device -> host)
    CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

    int errors = 0;
    for (int i = 0; i < n; ++i) {
        const float expected = h_a[i] + h_b[i];
        if (std::fabs(h_c[i] - expected) > 1e-5f * std::fabs(expected) + 1e-6f) {
            if (errors < 10) {
                fprintf(stderr, "mismatch at %d: got %f, expected %f\n",
                        i, h_c[i], expected);
            }
            ++errors;
        }
    }

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));

    if (errors != 0) {
        printf("FAILED: %d mismatches out of %d\n", errors, n);
        return EXIT_FAILURE;
    }
    printf("PASSED: %d elements\n", n);
    return EXIT_SUCCESS;
}
