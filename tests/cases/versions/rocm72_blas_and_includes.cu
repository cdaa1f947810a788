// hipport-flags: --rocm-version=7.2
// ROCm 7.2: hipBLAS 3 removed the _v2 API (its plain names take hipComplex and
// hipDataType), hip_runtime.h no longer includes <stdio.h> or <string.h>, and
// the launch-configuration API (hipLaunchConfig_t) exists.
#include <cuda_runtime.h>
#include <cublas_v2.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
    if (i == 0) printf("scaled %d values\n", n);
}

int gemms(cublasHandle_t handle, const cuComplex* a, cuComplex* c, const float* x, float* y,
          int n) {
    cuComplex one = make_cuComplex(1.0f, 0.0f);
    cublasStatus_t s = cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n,
                                   &one, c, n);
    if (s != CUBLAS_STATUS_SUCCESS) return 1;
    float alpha = 1.0f, beta = 0.0f;
    s = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, x, CUDA_R_32F, n, x,
                     CUDA_R_32F, n, &beta, y, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) return 1;
    float dot = 0.0f;
    s = cublasDotEx(handle, n, x, CUDA_R_32F, 1, x, CUDA_R_32F, 1, &dot, CUDA_R_32F, CUDA_R_32F);
    double norm = 0.0;
    cuDoubleComplex* z = nullptr;
    s = cublasDznrm2(handle, n, z, 1, &norm);
    return s == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}

int launch(float* x, int n, cudaStream_t stream) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 255) / 256);
    config.blockDim = dim3(256);
    config.stream = stream;
    float a = 2.0f;
    if (cudaLaunchKernelEx(&config, scale, x, a, n) != cudaSuccess) return 1;
    float host[4];
    memset(host, 0, sizeof(host));
    return cudaMemcpy(host, x, sizeof(host), cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : 1;
}
