#pragma once
#include <cuda_runtime.h>

cudaError_t scale(float* data, float factor, int n);
