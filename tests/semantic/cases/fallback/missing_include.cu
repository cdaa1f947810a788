#include <cuda_runtime.h>
#include "not_in_this_project.h"

void f(float* p) {
    cudaMalloc(&p, 16);
    cudaFree(p);
}
