// cuRAND host API fills two matrices, cuBLAS multiplies them.
#include <cstdio>
#include <cublas_v2.h>
#include <curand.h>
#include <cuda_runtime.h>

#define CUBLAS_OK(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    std::printf("cublas failed: %d\n", (int)s_); return 1; } } while (0)
#define CURAND_OK(x) do { if ((x) != CURAND_STATUS_SUCCESS) { \
    std::printf("curand failed\n"); return 1; } } while (0)

int gemm_random(int m, int n, int k)
{
    float *a, *b, *c;
    cudaMalloc(&a, sizeof(float) * m * k);
    cudaMalloc(&b, sizeof(float) * k * n);
    cudaMalloc(&c, sizeof(float) * m * n);

    curandGenerator_t gen;
    CURAND_OK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_OK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_OK(curandGenerateUniform(gen, a, (size_t)m * k));
    CURAND_OK(curandGenerateNormal(gen, b, (size_t)k * n, 0.0f, 1.0f));

    cublasHandle_t handle;
    CUBLAS_OK(cublasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    // Deprecated since CUDA 11 (the default heuristics); hipBLAS has one algorithm.
    cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP;
    std::printf("algorithm %d\n", (int)algo);
    CUBLAS_OK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha, a, m, b, n,
                          &beta, c, m));
    float norm = 0.0f;
    CUBLAS_OK(cublasSnrm2(handle, m * n, c, 1, &norm));
    CUBLAS_OK(cublasSaxpy(handle, m * n, &alpha, c, 1, c, 1));
    std::printf("|C| = %f\n", norm);

    cublasDestroy(handle);
    curandDestroyGenerator(gen);
    cudaFree(a); cudaFree(b); cudaFree(c);
    return 0;
}
