#pragma once
#include <cuda_runtime.h>

cudaError_t upload_table(const unsigned int* host);
void run_lookup(unsigned int* out);
