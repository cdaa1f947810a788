// A table of settings per data type, as the cuSOLVER samples' shared helper
// keeps one, and a parser of the refinement solver's name.
#include <cstring>
#include <cuda_runtime.h>
#include <cusolverDn.h>

template <typename T> struct Traits;
template <> struct Traits<float> { static constexpr cusolverPrecType_t precision = CUSOLVER_R_32F; };
template <> struct Traits<double> { static constexpr cusolverPrecType_t precision = CUSOLVER_R_64F; };

bool is_complex(cusolverPrecType_t p) {
    return p >= CUSOLVER_C_8I;
}

int bits(cusolverPrecType_t p) {
    switch (p) {
    case CUSOLVER_R_8I: case CUSOLVER_R_8U: case CUSOLVER_C_8I: case CUSOLVER_C_8U: return 8;
    case CUSOLVER_R_16F: case CUSOLVER_R_16BF: case CUSOLVER_C_16F: case CUSOLVER_C_16BF: return 16;
    case CUSOLVER_R_32F: case CUSOLVER_R_TF32: case CUSOLVER_C_32F: case CUSOLVER_C_TF32: return 32;
    case CUSOLVER_R_64F: case CUSOLVER_C_64F: return 64;
    case CUSOLVER_R_AP: case CUSOLVER_C_AP: return 0;
    }
    return -1;
}
