#include <cuda_runtime.h>
#include "mytypes.h"

typedef cudaStream_t Stream;
using Event = cudaEvent_t;

void pipeline(cudnnHandle_t dnn, cusparseHandle_t sparse) {
    Stream s;
    Event e;
    cudaStreamCreate(&s);
    cudaEventCreate(&e);
    cudaEventRecord(e, s);
    dnn->seed = static_cast<unsigned>(sparse);
}
