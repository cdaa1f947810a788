// hipport-flags: --roc
// hipport-oracles: rocm-6.4 rocm-7.2
// cuSOLVER's LU and QR as rocSOLVER (--roc): a rocBLAS handle, no workspace.
#include <cuda_runtime.h>
#include <cusolverDn.h>

int solve(float* A, double* C, int n, int lda, float* B, int* ipiv, int* info)
{
    cusolverDnHandle_t handle = nullptr;
    cudaStream_t stream = nullptr;
    if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS)
        return 1;
    cusolverDnSetStream(handle, stream);
    float* work = nullptr;
    double* dwork = nullptr;
    cusolverStatus_t status = cusolverDnSgetrf(handle, n, n, A, lda, work, ipiv, info);
    if (status == CUSOLVER_STATUS_INVALID_VALUE)
        return 2;
    cusolverDnSgetrf(handle, n, n, A, lda, work, NULL, info);
    cusolverDnDgetrf(handle, n, n, C, lda, dwork, ipiv, info);
    cusolverDnSgeqrf(handle, n, n, A, lda, B, work, 0, info);
    cusolverDnGetStream(handle, &stream);
    return cusolverDnDestroy(handle) == CUSOLVER_STATUS_SUCCESS ? 0 : 3;
}
