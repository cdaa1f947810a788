#pragma once
// The project's own types that happen to share cuDNN's and cuSPARSE's names
// (neither library is included anywhere in this project).
struct cudnnContext { unsigned seed; };
typedef struct cudnnContext* cudnnHandle_t;
typedef int cusparseHandle_t;
