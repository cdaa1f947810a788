// Half-precision GEMMs: cuBLAS takes __half*, hipBLAS hipblasHalf* (uint16_t):
// the same bits, so each half pointer is cast.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

int half_gemms(cublasHandle_t handle, int n, const __half* a, const __half* b, __half* c,
               const __half* const* as, const __half* const* bs, __half* const* cs, int batch)
{
    const __half one = __float2half(1.0f), zero = __float2half(0.0f);
    cublasStatus_t s = cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n,
                                   &one, a, n, b, n, &zero, c, n);
    if (s != CUBLAS_STATUS_SUCCESS) return 1;
    s = cublasHgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                           &one, as, n, bs, n, &zero, cs, n, batch);
    if (s != CUBLAS_STATUS_SUCCESS) return 2;
    long long stride = (long long)n * n;
    s = cublasHgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                                  &one, a, n, stride, b + 0, n, stride,
                                  &zero, c, n, stride, batch);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : 3;
}
