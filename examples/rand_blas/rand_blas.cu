// rand_blas.cu - random matrices with cuRAND, products with cuBLAS.
//
// 1. curandGenerateUniform fills A (m x k) and B (n x k) on the device.
// 2. A kernel using the cuRAND device API (curand_init / curand_uniform)
//    produces a noise matrix E (m x n).
// 3. cublasSgemm computes C = A * B^T, cublasSaxpy adds 0.01 * E and
//    cublasSnrm2 returns ||C||_F, which is checked against the host.
// All matrices are column-major, as cuBLAS expects.

#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <curand.h>
#include <curand_kernel.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err = (call);                                             \
        if (err != cudaSuccess) {                                             \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                \
                    cudaGetErrorString(err));                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define CURAND_CHECK(call)                                                    \
    do {                                                                      \
        curandStatus_t st = (call);                                           \
        if (st != CURAND_STATUS_SUCCESS) {                                    \
            fprintf(stderr, "%s:%d: cuRAND error %d\n", __FILE__, __LINE__,   \
                    (int)st);                                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define CUBLAS_CHECK(call)                                                    \
    do {                                                                      \
        cublasStatus_t st = (call);                                           \
        if (st != CUBLAS_STATUS_SUCCESS) {                                    \
            fprintf(stderr, "%s:%d: cuBLAS error %d\n", __FILE__, __LINE__,   \
                    (int)st);                                                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Each thread owns one curandState, seeded with its global index as the
// subsequence so the streams are independent.
__global__ void uniformNoise(float* out, int count, unsigned long long seed)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= count) return;
    curandState state;
    curand_init(seed, tid, 0, &state);
    out[tid] = curand_uniform(&state) - 0.5f;   // in (-0.5, 0.5]
}

int main()
{
    const int m = 256, n = 192, k = 128;
    const float noiseScale = 0.01f;

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));

    float *d_A, *d_B, *d_C, *d_E;
    CUDA_CHECK(cudaMalloc(&d_A, sizeof(float) * m * k));
    CUDA_CHECK(cudaMalloc(&d_B, sizeof(float) * n * k));
    CUDA_CHECK(cudaMalloc(&d_C, sizeof(float) * m * n));
    CUDA_CHECK(cudaMalloc(&d_E, sizeof(float) * m * n));

    // --- host API: fill A and B -------------------------------------------
    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_CHECK(curandSetStream(gen, stream));
    CURAND_CHECK(curandGenerateUniform(gen, d_A, (size_t)m * k));
    CURAND_CHECK(curandGenerateUniform(gen, d_B, (size_t)n * k));

    // --- device API: noise matrix -----------------------------------------
    const int threads = 128;
    const int blocks = (m * n + threads - 1) / threads;
    uniformNoise<<<blocks, threads, 0, stream>>>(d_E, m * n, 42ULL);
    CUDA_CHECK(cudaGetLastError());

    // --- cuBLAS ------------------------------------------------------------
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    const float alpha = 1.0f, beta = 0.0f;
    // C(m x n) = A(m x k) * B(n x k)^T
    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k,
                             &alpha, d_A, m, d_B, n, &beta, d_C, m));
    CUBLAS_CHECK(cublasSaxpy(handle, m * n, &noiseScale, d_E, 1, d_C, 1));

    float gpuNorm = 0.0f;   // host pointer mode (the default)
    CUBLAS_CHECK(cublasSnrm2(handle, m * n, d_C, 1, &gpuNorm));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    // --- host reference ----------------------------------------------------
    std::vector<float> A((size_t)m * k), B((size_t)n * k), E((size_t)m * n);
    CUDA_CHECK(cudaMemcpy(A.data(), d_A, sizeof(float) * A.size(),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(B.data(), d_B, sizeof(float) * B.size(),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(E.data(), d_E, sizeof(float) * E.size(),
                          cudaMemcpyDeviceToHost));

    double sq = 0.0;
    bool inRange = true;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
            double c = 0.0;
            for (int p = 0; p < k; ++p) {
                c += (double)A[i + (size_t)p * m] * B[j + (size_t)p * n];
            }
            const float e = E[i + (size_t)j * m];
            if (e < -0.5f || e > 0.5f) inRange = false;
            c += noiseScale * e;
            sq += c * c;
        }
    }
    const double cpuNorm = std::sqrt(sq);
    const double relErr = std::fabs(gpuNorm - cpuNorm) / cpuNorm;
    printf("||C||_F: cublasSnrm2=%.4f host=%.4f rel err=%.2e\n",
           gpuNorm, cpuNorm, relErr);

    // --- cleanup -----------------------------------------------------------
    CUBLAS_CHECK(cublasDestroy(handle));
    CURAND_CHECK(curandDestroyGenerator(gen));
    CUDA_CHECK(cudaFree(d_A));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_C));
    CUDA_CHECK(cudaFree(d_E));
    CUDA_CHECK(cudaStreamDestroy(stream));

    const bool ok = inRange && relErr < 1e-4;
    printf("%s\n", ok ? "PASSED" : "FAILED (cublasSgemm result mismatch)");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
