#include <cstdio>
#include <cuda_runtime.h>
#include <cuComplex.h>
#include <cublas_v2.h>

#define CHECK_CUBLAS(call)                                                   \
  do {                                                                       \
    cublasStatus_t status_ = (call);                                         \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                  \
      std::printf("cuBLAS error %d at line %d\n", (int)status_, __LINE__);   \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int run(int n) {
  float *a, *b, *c, *x, *y;
  double *da, *db, *dc;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&da, n * n * sizeof(double));
  cudaMalloc(&db, n * n * sizeof(double));
  cudaMalloc(&dc, n * n * sizeof(double));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  CHECK_CUBLAS(cublasSetStream(handle, stream));
  CHECK_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  cublasPointerMode_t mode;
  CHECK_CUBLAS(cublasGetPointerMode(handle, &mode));
  const float alpha = 1.0f, beta = 0.0f;
  const double dalpha = 2.0, dbeta = 1.0;
  CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, a, n, b, n,
                           &beta, c, n));
  CHECK_CUBLAS(cublasDgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &dalpha, da, n, db, n,
                           &dbeta, dc, n));
  CHECK_CUBLAS(cublasSgemv(handle, CUBLAS_OP_N, n, n, &alpha, a, n, x, 1, &beta, y, 1));
  CHECK_CUBLAS(cublasSaxpy(handle, n, &alpha, x, 1, y, 1));
  CHECK_CUBLAS(cublasSscal(handle, n, &alpha, x, 1));
  float dot = 0.0f, norm = 0.0f;
  CHECK_CUBLAS(cublasSdot(handle, n, x, 1, y, 1, &dot));
  CHECK_CUBLAS(cublasSnrm2(handle, n, x, 1, &norm));
  int index = 0;
  CHECK_CUBLAS(cublasIsamax(handle, n, x, 1, &index));
  CHECK_CUBLAS(cublasStrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                           CUBLAS_DIAG_NON_UNIT, n, n, &alpha, a, n, b, n));
  CHECK_CUBLAS(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a,
                                         n, 0, b, n, 0, &beta, c, n, 0, 1));
  // Complex routines: rocBLAS takes HIP's complex types once the converted file
  // defines ROCM_MATHLIBS_API_USE_HIP_COMPLEX before including it.
  cuComplex* ca;
  cudaMalloc(&ca, n * n * sizeof(cuComplex));
  const cuComplex calpha = make_cuComplex(1.0f, 0.0f);
  CHECK_CUBLAS(cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_C, n, n, n, &calpha, ca, n, ca, n,
                           &calpha, ca, n));
  CHECK_CUBLAS(cublasCaxpy(handle, n, &calpha, ca, 1, ca + n, 1));
  float host[4] = {1, 2, 3, 4};
  CHECK_CUBLAS(cublasSetVector(4, sizeof(float), host, 1, x, 1));
  CHECK_CUBLAS(cublasGetVector(4, sizeof(float), x, 1, host, 1));
  CHECK_CUBLAS(cublasSetMatrix(2, 2, sizeof(float), host, 2, a, n));
  cublasStatus_t last = cublasDestroy(handle);
  if (last == CUBLAS_STATUS_NOT_INITIALIZED || last == CUBLAS_STATUS_INVALID_VALUE) return 2;
  cudaStreamDestroy(stream);
  return 0;
}

int main() { return run(64); }
