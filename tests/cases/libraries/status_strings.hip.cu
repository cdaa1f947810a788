// Error-string helpers of the kind shared sample folders carry: every
// status of cuFFT, including ones hipFFT does not have, and CUDA device
// attributes HIP folds into one (issue 26: kept, every program including
// the helper failed to compile).
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

static const char* fftStatusName(hipfftResult error)
{
    switch (error) {
    case HIPFFT_SUCCESS:
        return "CUFFT_SUCCESS";
    case HIPFFT_INVALID_PLAN:
        return "CUFFT_INVALID_PLAN";
    case HIPFFT_ALLOC_FAILED:
        return "CUFFT_ALLOC_FAILED";
    case HIPFFT_INTERNAL_ERROR:
        return "CUFFT_INTERNAL_ERROR";
    case HIPFFT_EXEC_FAILED:
        return "CUFFT_EXEC_FAILED";
    case HIPFFT_INVALID_SIZE:
        return "CUFFT_INVALID_SIZE";
    case HIPFFT_NOT_SUPPORTED:
        return "CUFFT_NOT_SUPPORTED";
    default:
        break;
    }
    return "<unknown>";
}

static int fftFailed(hipfftResult status)
{
    int failed = 1;
    switch (status) {
    case HIPFFT_SUCCESS:
        failed = 0;
        break;
    case HIPFFT_INTERNAL_ERROR:
        std::printf("cufft: internal error\n");
        break;
    case HIPFFT_EXEC_FAILED:
        std::printf("cufft: execution failed\n");
        std::printf("cufft: see the log\n");
        break;
    default:
        break;
    }
    return failed;
}

static const char* attributeName(hipDeviceAttribute_t attribute)
{
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock:
        return "threads per block";
    case hipDeviceAttributeMaxSurface2D:
        return "surface 2D width";
    default:
        return "other";
    }
}

int checkFft(hipfftResult r, hipDeviceAttribute_t a)
{
    if (r != HIPFFT_SUCCESS) {
        std::printf("cufft: %s (%s)\n", fftStatusName(r), attributeName(a));
        return 1;
    }
    return fftFailed(r);
}
