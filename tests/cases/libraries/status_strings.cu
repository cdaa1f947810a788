// Error-string helpers of the kind shared sample folders carry: every
// status of cuFFT, including ones hipFFT does not have, and CUDA device
// attributes HIP folds into one (issue 26: kept, every program including
// the helper failed to compile).
#include <cstdio>
#include <cuda_runtime.h>
#include <cufft.h>

static const char* fftStatusName(cufftResult error)
{
    switch (error) {
    case CUFFT_SUCCESS:
        return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN:
        return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
        return "CUFFT_ALLOC_FAILED";
    case CUFFT_INTERNAL_ERROR:
        return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
        return "CUFFT_EXEC_FAILED";
    case CUFFT_INVALID_SIZE:
        return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
        return "CUFFT_NOT_SUPPORTED";
    case CUFFT_MISSING_DEPENDENCY:
        return "CUFFT_MISSING_DEPENDENCY";
    case CUFFT_NVRTC_FAILURE:
        return "CUFFT_NVRTC_FAILURE";
    case CUFFT_NVJITLINK_FAILURE:
        return "CUFFT_NVJITLINK_FAILURE";
    case CUFFT_NVSHMEM_FAILURE:
        return "CUFFT_NVSHMEM_FAILURE";
    default:
        break;
    }
    return "<unknown>";
}

static int fftFailed(cufftResult status)
{
    int failed = 1;
    switch (status) {
    case CUFFT_SUCCESS:
        failed = 0;
        break;
    case CUFFT_INTERNAL_ERROR:
    case CUFFT_MISSING_DEPENDENCY:
        std::printf("cufft: internal error\n");
        break;
    case CUFFT_EXEC_FAILED:
        std::printf("cufft: execution failed\n");
    case CUFFT_NVRTC_FAILURE:
        std::printf("cufft: see the log\n");
        break;
    default:
        break;
    }
    return failed;
}

static const char* attributeName(cudaDeviceAttr attribute)
{
    switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock:
        return "threads per block";
    case cudaDevAttrMaxSurface2DWidth:
        return "surface 2D width";
    case cudaDevAttrMaxSurface2DHeight:
        return "surface 2D height";
    default:
        return "other";
    }
}

int checkFft(cufftResult r, cudaDeviceAttr a)
{
    if (r != CUFFT_SUCCESS) {
        std::printf("cufft: %s (%s)\n", fftStatusName(r), attributeName(a));
        return 1;
    }
    return fftFailed(r);
}
