// hipport-oracles: rocm-6.4 rocm-7.2
// CUDA 12's triangular solves: cusparseSpSM_solve takes no buffer (the
// descriptor keeps the one its analysis was given); hipsparseSpSM_solve takes
// it last, so it is passed again. cusparseSpSV_solve's arguments are HIP's.
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

void solve_many(hipsparseHandle_t handle, hipsparseSpMatDescr_t A, hipsparseDnMatDescr_t B,
                hipsparseDnMatDescr_t C, const float* alpha) {
    hipsparseSpSMDescr_t spsm;
    hipsparseSpSM_createDescr(&spsm);
    size_t size = 0;
    hipsparseSpSM_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE,
                            HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, HIP_R_32F,
                            HIPSPARSE_SPSM_ALG_DEFAULT, spsm, &size);
    void* work = nullptr;
    hipMalloc(&work, size);
    hipsparseSpSM_analysis(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE,
                          HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, HIP_R_32F,
                          HIPSPARSE_SPSM_ALG_DEFAULT, spsm, work);
    hipsparseSpSM_solve(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE,
                       HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, HIP_R_32F,
                       HIPSPARSE_SPSM_ALG_DEFAULT, spsm, work);
    hipsparseSpSM_destroyDescr(spsm);
    hipFree(work);
}

void solve_vector(hipsparseHandle_t handle, hipsparseSpMatDescr_t A, hipsparseDnVecDescr_t x,
                  hipsparseDnVecDescr_t y, const float* alpha, hipsparseSpSVDescr_t spsv,
                  void* work) {
    hipsparseSpSV_analysis(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, HIP_R_32F,
                          HIPSPARSE_SPSV_ALG_DEFAULT, spsv, work);
    hipsparseSpSV_solve(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, HIP_R_32F,
                       HIPSPARSE_SPSV_ALG_DEFAULT, spsv);
}
