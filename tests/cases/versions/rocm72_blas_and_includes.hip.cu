// hipport-flags: --rocm-version=7.2
// ROCm 7.2: hipBLAS 3 removed the _v2 API (its plain names take hipComplex and
// hipDataType), hip_runtime.h no longer includes <stdio.h> or <string.h>, and
// the launch-configuration API (hipLaunchConfig_t) exists.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <stdio.h>
#include <string.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
    if (i == 0) printf("scaled %d values\n", n);
}

int gemms(hipblasHandle_t handle, const hipComplex* a, hipComplex* c, const float* x, float* y,
          int n) {
    hipComplex one = make_hipComplex(1.0f, 0.0f);
    hipblasStatus_t s = hipblasCgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, a, n,
                                   &one, c, n);
    if (s != HIPBLAS_STATUS_SUCCESS) return 1;
    float alpha = 1.0f, beta = 0.0f;
    s = hipblasGemmEx(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &alpha, x, HIP_R_32F, n, x,
                     HIP_R_32F, n, &beta, y, HIP_R_32F, n, HIPBLAS_COMPUTE_32F,
                     HIPBLAS_GEMM_DEFAULT);
    if (s != HIPBLAS_STATUS_SUCCESS) return 1;
    float dot = 0.0f;
    s = hipblasDotEx(handle, n, x, HIP_R_32F, 1, x, HIP_R_32F, 1, &dot, HIP_R_32F, HIP_R_32F);
    double norm = 0.0;
    hipDoubleComplex* z = nullptr;
    s = hipblasDznrm2(handle, n, z, 1, &norm);
    return s == HIPBLAS_STATUS_SUCCESS ? 0 : 1;
}

int launch(float* x, int n, hipStream_t stream) {
    hipLaunchConfig_t config = {};
    config.gridDim = dim3((n + 255) / 256);
    config.blockDim = dim3(256);
    config.stream = stream;
    float a = 2.0f;
    if (hipLaunchKernelEx(&config, scale, x, a, n) != hipSuccess) return 1;
    float host[4];
    memset(host, 0, sizeof(host));
    return hipMemcpy(host, x, sizeof(host), hipMemcpyDeviceToHost) == hipSuccess ? 0 : 1;
}
