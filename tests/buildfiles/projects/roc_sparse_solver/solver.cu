// cuSOLVER's Cholesky and LU solves (no workspace queries: rocSOLVER has none to convert to).
#include <cstdio>
#include <cuda_runtime.h>
#include <cusolverDn.h>

int main()
{
    const int n = 4;
    float* A = nullptr;
    float* B = nullptr;
    int* ipiv = nullptr;
    int* info = nullptr;
    cudaMalloc(&A, n * n * sizeof(float));
    cudaMalloc(&B, n * sizeof(float));
    cudaMalloc(&ipiv, n * sizeof(int));
    cudaMalloc(&info, sizeof(int));

    cusolverDnHandle_t handle;
    if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
        return 1;
    float* work = nullptr;
    cusolverDnSpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, A, n, work, 0, info);
    cusolverDnSpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info);
    cusolverDnSgetrf(handle, n, n, A, n, work, ipiv, info);
    cusolverStatus_t status = cusolverDnSgetrs(handle, CUBLAS_OP_N, n, 1, A, n, ipiv, B, n, info);
    std::printf("getrs: %d\n", static_cast<int>(status));
    cusolverDnDestroy(handle);
    cudaFree(info);
    cudaFree(ipiv);
    cudaFree(B);
    cudaFree(A);
    return 0;
}
