// make_float4 & co. come from vector_functions.h in CUDA; HIP declares them
// in the header of the vector types.
#include <vector_functions.h>
#include <cuda_runtime.h>

__global__ void fill(float4* out, int2* index) {
    out[threadIdx.x] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    index[threadIdx.x] = make_int2(threadIdx.x, blockIdx.x);
}

int main() {
    float4* out = nullptr;
    int2* index = nullptr;
    cudaMalloc(&out, 64 * sizeof(float4));
    cudaMalloc(&index, 64 * sizeof(int2));
    fill<<<1, 64>>>(out, index);
    cudaDeviceSynchronize();
    cudaFree(out);
    cudaFree(index);
    return 0;
}
