// An error-string helper of the kind shared sample folders carry: every
// status of cuFFT and cuSOLVER, including ones hipFFT/hipSOLVER do not have
// (issue 26: kept, every program including the helper failed to compile).
#include <cstdio>
#include <hipfft/hipfft.h>
#include <hipsolver/hipsolver.h>

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

static int solverFailed(hipsolverStatus_t status)
{
    int failed = 1;
    switch (status) {
    case HIPSOLVER_STATUS_SUCCESS:
        failed = 0;
        break;
    case HIPSOLVER_STATUS_INTERNAL_ERROR:
        std::printf("cusolver: internal error\n");
        break;
    case HIPSOLVER_STATUS_EXECUTION_FAILED:
        std::printf("cusolver: execution failed\n");
        std::printf("cusolver: see the log\n");
        break;
    default:
        break;
    }
    return failed;
}

int checkFft(hipfftResult r, hipsolverStatus_t s)
{
    if (r != HIPFFT_SUCCESS) {
        std::printf("cufft: %s\n", fftStatusName(r));
        return 1;
    }
    return solverFailed(s);
}
