// cuRAND host API fills two matrices, cuBLAS multiplies them.
#include <cstdio>
#include <hipblas/hipblas.h>
#include <hiprand/hiprand.h>
#include <hip/hip_runtime.h>

#define CUBLAS_OK(x) do { hipblasStatus_t s_ = (x); if (s_ != HIPBLAS_STATUS_SUCCESS) { \
    std::printf("cublas failed: %d\n", (int)s_); return 1; } } while (0)
#define CURAND_OK(x) do { if ((x) != HIPRAND_STATUS_SUCCESS) { \
    std::printf("curand failed\n"); return 1; } } while (0)

int gemm_random(int m, int n, int k)
{
    float *a, *b, *c;
    hipMalloc(&a, sizeof(float) * m * k);
    hipMalloc(&b, sizeof(float) * k * n);
    hipMalloc(&c, sizeof(float) * m * n);

    hiprandGenerator_t gen;
    CURAND_OK(hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT));
    CURAND_OK(hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
    CURAND_OK(hiprandGenerateUniform(gen, a, (size_t)m * k));
    CURAND_OK(hiprandGenerateNormal(gen, b, (size_t)k * n, 0.0f, 1.0f));

    hipblasHandle_t handle;
    CUBLAS_OK(hipblasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    // Deprecated since CUDA 11 (the default heuristics); hipBLAS has one algorithm.
    hipblasGemmAlgo_t algo = HIPBLAS_GEMM_DEFAULT;
    std::printf("algorithm %d\n", (int)algo);
    CUBLAS_OK(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, a, m, b, n,
                          &beta, c, m));
    float norm = 0.0f;
    CUBLAS_OK(hipblasSnrm2(handle, m * n, c, 1, &norm));
    CUBLAS_OK(hipblasSaxpy(handle, m * n, &alpha, c, 1, c, 1));
    std::printf("|C| = %f\n", norm);

    hipblasDestroy(handle);
    hiprandDestroyGenerator(gen);
    hipFree(a); hipFree(b); hipFree(c);
    return 0;
}
