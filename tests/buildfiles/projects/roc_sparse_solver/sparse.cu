// cuSPARSE's handle, matrix descriptor and format helpers, as rocSPARSE (--roc).
#include <cstdio>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CHECK_SPARSE(call)                                                     \
    do {                                                                       \
        cusparseStatus_t s_ = (call);                                          \
        if (s_ != CUSPARSE_STATUS_SUCCESS)                                     \
            std::printf("sparse error %s\n", cusparseGetErrorString(s_));    \
    } while (0)

int sort_and_expand(int m, int n, int nnz, int* rowPtr, int* colInd, int* cooRows,
                    cudaStream_t stream)
{
    cusparseHandle_t handle;
    cusparseMatDescr_t descr;
    CHECK_SPARSE(cusparseCreate(&handle));
    CHECK_SPARSE(cusparseSetStream(handle, stream));
    CHECK_SPARSE(cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_HOST));
    CHECK_SPARSE(cusparseCreateMatDescr(&descr));
    CHECK_SPARSE(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO));
    CHECK_SPARSE(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));

    size_t bytes = 0;
    CHECK_SPARSE(cusparseXcsrsort_bufferSizeExt(handle, m, n, nnz, rowPtr, colInd, &bytes));
    void* buffer = nullptr;
    int* perm = nullptr;
    cudaMalloc(&buffer, bytes);
    cudaMalloc(&perm, nnz * sizeof(int));
    CHECK_SPARSE(cusparseCreateIdentityPermutation(handle, nnz, perm));
    CHECK_SPARSE(cusparseXcsrsort(handle, m, n, nnz, descr, rowPtr, colInd, perm, buffer));
    CHECK_SPARSE(cusparseXcsr2coo(handle, rowPtr, nnz, m, cooRows, CUSPARSE_INDEX_BASE_ZERO));

    cudaFree(perm);
    cudaFree(buffer);
    CHECK_SPARSE(cusparseDestroyMatDescr(descr));
    CHECK_SPARSE(cusparseDestroy(handle));
    return 0;
}

int main()
{
    int* rowPtr = nullptr;
    int* colInd = nullptr;
    int* cooRows = nullptr;
    cudaMalloc(&rowPtr, 5 * sizeof(int));
    cudaMalloc(&colInd, 8 * sizeof(int));
    cudaMalloc(&cooRows, 8 * sizeof(int));
    int status = sort_and_expand(4, 4, 8, rowPtr, colInd, cooRows, nullptr);
    cudaFree(cooRows);
    cudaFree(colInd);
    cudaFree(rowPtr);
    return status;
}
