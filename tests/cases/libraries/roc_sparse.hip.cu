// hipport-flags: --roc
// hipport-oracles: rocm-6.4 rocm-7.2
// cuSPARSE's handle, matrix descriptor and format helpers, as rocSPARSE (--roc).
#include <cstdio>
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

#define CHECK_SPARSE(call)                                                     \
    do {                                                                       \
        rocsparse_status s_ = (call);                                          \
        if (s_ != rocsparse_status_success)                                     \
            std::printf("cusparse error %s\n", rocsparse_get_status_description(s_));    \
    } while (0)

int sort_and_expand(int m, int n, int nnz, int* rowPtr, int* colInd, int* cooRows,
                    hipStream_t stream)
{
    rocsparse_handle handle;
    rocsparse_mat_descr descr;
    CHECK_SPARSE(rocsparse_create_handle(&handle));
    CHECK_SPARSE(rocsparse_set_stream(handle, stream));
    CHECK_SPARSE(rocsparse_set_pointer_mode(handle, rocsparse_pointer_mode_host));
    CHECK_SPARSE(rocsparse_create_mat_descr(&descr));
    CHECK_SPARSE(rocsparse_set_mat_index_base(descr, rocsparse_index_base_zero));
    CHECK_SPARSE(rocsparse_set_mat_type(descr, rocsparse_matrix_type_general));

    size_t bytes = 0;
    CHECK_SPARSE(rocsparse_csrsort_buffer_size(handle, m, n, nnz, rowPtr, colInd, &bytes));
    void* buffer = nullptr;
    int* perm = nullptr;
    hipMalloc(&buffer, bytes);
    hipMalloc(&perm, nnz * sizeof(int));
    CHECK_SPARSE(rocsparse_create_identity_permutation(handle, nnz, perm));
    CHECK_SPARSE(rocsparse_csrsort(handle, m, n, nnz, descr, rowPtr, colInd, perm, buffer));
    CHECK_SPARSE(rocsparse_csr2coo(handle, rowPtr, nnz, m, cooRows, rocsparse_index_base_zero));

    hipFree(perm);
    hipFree(buffer);
    CHECK_SPARSE(rocsparse_destroy_mat_descr(descr));
    CHECK_SPARSE(rocsparse_destroy_handle(handle));
    return 0;
}
