// __nanosleep as the back-off of a spin lock.
#include <cuda_runtime.h>

__device__ void lock(int* mutex) {
    unsigned ns = 8;
    while (atomicCAS(mutex, 0, 1) != 0) {
        __nanosleep(ns);
        if (ns < 256) ns *= 2;
    }
}

__global__ void count(int* mutex, int* counter) {
    if (threadIdx.x == 0) {
        lock(mutex);
        *counter += 1;
        __threadfence();
        atomicExch(mutex, 0);
    }
    __nanosleep(100);
}
