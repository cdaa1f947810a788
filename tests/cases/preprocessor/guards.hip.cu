// Helpers wrapped in tests of CUDA header include guards (the helper_cuda.h
// style): after conversion they must still be compiled, so the tests ask
// about the HIP headers instead.  The calls at the end fail to compile if a
// helper silently disappeared.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>

#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
static const char* error_name(hipError_t error) { return hipGetErrorName(error); }
#endif

#ifdef HIPBLAS_H
static const char* error_name(hipblasStatus_t status)
{
    return status == HIPBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "cuBLAS error";
}
#endif

#if defined(HIPFFT_H_)
static const char* error_name(hipfftResult result)
{
    return result == HIPFFT_SUCCESS ? "CUFFT_SUCCESS" : "cuFFT error";
}
#endif

#if defined(HIPRAND_H_) && !defined(MY_CUDA_RUNTIME_H_)
static const char* error_name(hiprandStatus_t status)
{
    return status == HIPRAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "cuRAND error";
}
#endif

// The project's own macro with a CUDA-like name stays.
#ifndef MY_CUDA_RUNTIME_H_
#define MY_CUDA_RUNTIME_H_ 1
#endif

const char* all_names()
{
    error_name(hipSuccess);
    error_name(HIPBLAS_STATUS_SUCCESS);
    error_name(HIPFFT_SUCCESS);
    return error_name(HIPRAND_STATUS_SUCCESS);
}
