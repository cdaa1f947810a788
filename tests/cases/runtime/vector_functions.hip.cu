// make_float4 & co. come from vector_functions.h in CUDA; HIP declares them
// in the header of the vector types.
#include <hip/hip_vector_types.h>
#include <hip/hip_runtime.h>

__global__ void fill(float4* out, int2* index) {
    out[threadIdx.x] = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
    index[threadIdx.x] = make_int2(threadIdx.x, blockIdx.x);
}

int main() {
    float4* out = nullptr;
    int2* index = nullptr;
    hipMalloc(&out, 64 * sizeof(float4));
    hipMalloc(&index, 64 * sizeof(int2));
    fill<<<1, 64>>>(out, index);
    hipDeviceSynchronize();
    hipFree(out);
    hipFree(index);
    return 0;
}
