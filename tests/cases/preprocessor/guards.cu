// Helpers wrapped in tests of CUDA header include guards (the helper_cuda.h
// style): after conversion they must still be compiled, so the tests ask
// about the HIP headers instead.  The calls at the end fail to compile if a
// helper silently disappeared.
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cufft.h>
#include <curand.h>

#ifdef __DRIVER_TYPES_H__
static const char* error_name(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#ifdef CUBLAS_API_H_
static const char* error_name(cublasStatus_t status)
{
    return status == CUBLAS_STATUS_SUCCESS ? "CUBLAS_STATUS_SUCCESS" : "cuBLAS error";
}
#endif

#if defined(_CUFFT_H_)
static const char* error_name(cufftResult result)
{
    return result == CUFFT_SUCCESS ? "CUFFT_SUCCESS" : "cuFFT error";
}
#endif

#if defined(CURAND_H_) && !defined(MY_CUDA_RUNTIME_H_)
static const char* error_name(curandStatus_t status)
{
    return status == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "cuRAND error";
}
#endif

// The project's own macro with a CUDA-like name stays.
#ifndef MY_CUDA_RUNTIME_H_
#define MY_CUDA_RUNTIME_H_ 1
#endif

const char* all_names()
{
    error_name(cudaSuccess);
    error_name(CUBLAS_STATUS_SUCCESS);
    error_name(CUFFT_SUCCESS);
    return error_name(CURAND_STATUS_SUCCESS);
}
