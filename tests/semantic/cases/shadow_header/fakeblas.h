// The project's own stand-in for a BLAS handle API, named like cuBLAS.
#pragma once
typedef int cublasHandle_t;
int cublasCreate(cublasHandle_t* handle);
void cudaLogFailure(const char* what);
