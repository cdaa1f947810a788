// An error-string helper of the kind shared sample folders carry: every
// status of cuFFT and cuSOLVER, including ones hipFFT/hipSOLVER do not have
// (issue 26: kept, every program including the helper failed to compile).
#include <cstdio>
#include <cufft.h>
#include <cusolverDn.h>

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
    case CUFFT_LICENSE_ERROR:
        return "CUFFT_LICENSE_ERROR";
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

static int solverFailed(cusolverStatus_t status)
{
    int failed = 1;
    switch (status) {
    case CUSOLVER_STATUS_SUCCESS:
        failed = 0;
        break;
    case CUSOLVER_STATUS_INTERNAL_ERROR:
    case CUSOLVER_STATUS_INVALID_LICENSE:
        std::printf("cusolver: internal error\n");
        break;
    case CUSOLVER_STATUS_EXECUTION_FAILED:
        std::printf("cusolver: execution failed\n");
    case CUSOLVER_STATUS_IRS_INTERNAL_ERROR:
        std::printf("cusolver: see the log\n");
        break;
    default:
        break;
    }
    return failed;
}

int checkFft(cufftResult r, cusolverStatus_t s)
{
    if (r != CUFFT_SUCCESS) {
        std::printf("cufft: %s\n", fftStatusName(r));
        return 1;
    }
    return solverFailed(s);
}
