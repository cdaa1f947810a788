// hipport-oracles: rocm-6.4 rocm-7.2
// CUDA 12's triangular solves: cusparseSpSM_solve takes no buffer (the
// descriptor keeps the one its analysis was given); hipsparseSpSM_solve takes
// it last, so it is passed again. cusparseSpSV_solve's arguments are HIP's.
#include <cusparse.h>

void solve_many(cusparseHandle_t handle, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,
                cusparseDnMatDescr_t C, const float* alpha) {
    cusparseSpSMDescr_t spsm;
    cusparseSpSM_createDescr(&spsm);
    size_t size = 0;
    cusparseSpSM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, CUDA_R_32F,
                            CUSPARSE_SPSM_ALG_DEFAULT, spsm, &size);
    void* work = nullptr;
    cudaMalloc(&work, size);
    cusparseSpSM_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                          CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, CUDA_R_32F,
                          CUSPARSE_SPSM_ALG_DEFAULT, spsm, work);
    cusparseSpSM_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                       CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C, CUDA_R_32F,
                       CUSPARSE_SPSM_ALG_DEFAULT, spsm);
    cusparseSpSM_destroyDescr(spsm);
    cudaFree(work);
}

void solve_vector(cusparseHandle_t handle, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                  cusparseDnVecDescr_t y, const float* alpha, cusparseSpSVDescr_t spsv,
                  void* work) {
    cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, CUDA_R_32F,
                          CUSPARSE_SPSV_ALG_DEFAULT, spsv, work);
    cusparseSpSV_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, CUDA_R_32F,
                       CUSPARSE_SPSV_ALG_DEFAULT, spsv);
}
