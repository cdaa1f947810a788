#pragma once
#include <cuda_runtime.h>

// Defined in scale.cu: a device function other translation units call,
// which is what separable compilation (relocatable device code) is for.
__device__ float scale_value(float x, float factor);

// A host entry point of the library: its kernel calls scale_value across
// translation units (scale_kernel.cu -> scale.cu).
cudaError_t scale_on_device(float* data, int n, float factor);
