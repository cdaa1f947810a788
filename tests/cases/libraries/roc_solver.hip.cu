// hipport-flags: --roc
// hipport-oracles: rocm-6.4 rocm-7.2
// cuSOLVER's LU and QR as rocSOLVER (--roc): a rocBLAS handle, no workspace.
#include <hip/hip_runtime.h>
#ifndef ROCM_MATHLIBS_API_USE_HIP_COMPLEX
#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX
#endif
#include <rocsolver/rocsolver.h>

int solve(float* A, double* C, int n, int lda, float* B, int* ipiv, int* info)
{
    rocblas_handle handle = nullptr;
    hipStream_t stream = nullptr;
    if (rocblas_create_handle(&handle) != rocblas_status_success)
        return 1;
    rocblas_set_stream(handle, stream);
    float* work = nullptr;
    double* dwork = nullptr;
    rocblas_status status = rocsolver_sgetrf(handle, n, n, A, lda, ipiv, info);
    if (status == rocblas_status_invalid_value)
        return 2;
    rocsolver_sgetrf_npvt(handle, n, n, A, lda, info);
    rocsolver_dgetrf(handle, n, n, C, lda, ipiv, info);
    rocsolver_sgeqrf(handle, n, n, A, lda, B);
    rocblas_get_stream(handle, &stream);
    return rocblas_destroy_handle(handle) == rocblas_status_success ? 0 : 3;
}
