// cuBLAS calls whose hipBLAS names changed with hipBLAS 3 (ROCm 7): the
// complex, mixed-precision and _Ex routines are hipblas*_v2 on ROCm 6.x and
// plain names with hipDataType/hipComplex from 7.0 on.
#include <cstdio>
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>

#define CUBLAS_OK(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    std::printf("cuBLAS error %d at line %d\n", (int)s_, __LINE__); return 1; } } while (0)

int main() {
    const int n = 64;
    cublasHandle_t handle;
    CUBLAS_OK(cublasCreate(&handle));
    float *a, *b, *c;
    cuComplex *ca, *cb, *cc;
    cuDoubleComplex* z;
    cudaMalloc(&a, sizeof(float) * n * n);
    cudaMalloc(&b, sizeof(float) * n * n);
    cudaMalloc(&c, sizeof(float) * n * n);
    cudaMalloc(&ca, sizeof(cuComplex) * n * n);
    cudaMalloc(&cb, sizeof(cuComplex) * n * n);
    cudaMalloc(&cc, sizeof(cuComplex) * n * n);
    cudaMalloc(&z, sizeof(cuDoubleComplex) * n);

    const float alpha = 1.0f, beta = 0.0f;
    CUBLAS_OK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n,
                          &beta, c, n));
    const cuComplex calpha = make_cuComplex(1.0f, 0.0f), cbeta = make_cuComplex(0.0f, 0.0f);
    CUBLAS_OK(cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, n, n, n, &calpha, ca, n, cb, n,
                          &cbeta, cc, n));
    CUBLAS_OK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_32F,
                           n, b, CUDA_R_32F, n, &beta, c, CUDA_R_32F, n,
                           CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    float dot = 0.0f;
    CUBLAS_OK(cublasDotEx(handle, n, a, CUDA_R_32F, 1, b, CUDA_R_32F, 1, &dot, CUDA_R_32F,
                          CUDA_R_32F));
    double norm = 0.0;
    CUBLAS_OK(cublasDznrm2(handle, n, z, 1, &norm));
    std::printf("dot %f norm %f\n", dot, norm);

    cudaFree(a); cudaFree(b); cudaFree(c);
    cudaFree(ca); cudaFree(cb); cudaFree(cc); cudaFree(z);
    CUBLAS_OK(cublasDestroy(handle));
    return 0;
}
