#include "scale.cuh"

__device__ float scale_value(float x, float factor) { return x * factor + 1.0f; }
