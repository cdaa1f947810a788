// Half-precision GEMMs: cuBLAS takes __half*, hipBLAS hipblasHalf* (uint16_t):
// the same bits, so each half pointer is cast.
#include <hipblas/hipblas.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

int half_gemms(hipblasHandle_t handle, int n, const __half* a, const __half* b, __half* c,
               const __half* const* as, const __half* const* bs, __half* const* cs, int batch)
{
    const __half one = __float2half(1.0f), zero = __float2half(0.0f);
    hipblasStatus_t s = hipblasHgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n,
                                   (const hipblasHalf*)&one, (const hipblasHalf*)a, n, (const hipblasHalf*)b, n, (const hipblasHalf*)&zero, (hipblasHalf*)c, n);
    if (s != HIPBLAS_STATUS_SUCCESS) return 1;
    s = hipblasHgemmBatched(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n,
                           (const hipblasHalf*)&one, (const hipblasHalf* const*)as, n, (const hipblasHalf* const*)bs, n, (const hipblasHalf*)&zero, (hipblasHalf* const*)cs, n, batch);
    if (s != HIPBLAS_STATUS_SUCCESS) return 2;
    long long stride = (long long)n * n;
    s = hipblasHgemmStridedBatched(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n,
                                  (const hipblasHalf*)&one, (const hipblasHalf*)a, n, stride, (const hipblasHalf*)(b + 0), n, stride,
                                  (const hipblasHalf*)&zero, (hipblasHalf*)c, n, stride, batch);
    return s == HIPBLAS_STATUS_SUCCESS ? 0 : 3;
}
