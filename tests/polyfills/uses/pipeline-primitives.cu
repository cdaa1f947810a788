// Double buffering through the pipeline primitives: the next tile is copied to shared
// memory while the current one is summed (4-, 8- and 16-byte copies, one zero-filled).
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cuda_pipeline_primitives.h>

__global__ void tiles(const float4* in, const double* scale, const int* bias, float* out, int n) {
    __shared__ float4 tile[2][64];
    __shared__ double factor[64];
    __shared__ int offset[64];
    const int t = threadIdx.x;
    __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(float4));
    __pipeline_memcpy_async(&factor[t], &scale[t], sizeof(double));
    __pipeline_memcpy_async(&offset[t], &bias[t], sizeof(int), t % 2 == 0 ? 0 : 4);
    __pipeline_commit();
    float sum = 0.f;
    for (int k = 0; k < n; ++k) {
        if (k + 1 < n) {
            __pipeline_memcpy_async(&tile[(k + 1) % 2][t], &in[(k + 1) * 64 + t], 16, 0);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        const float4 v = tile[k % 2][t];
        sum += (v.x + v.y + v.z + v.w) * (float)factor[t] + (float)offset[t];
        __syncthreads();
    }
    __pipeline_wait_prior(0);
    out[t] = sum;
}

int main() {
    float4* in = nullptr;
    double* scale = nullptr;
    int* bias = nullptr;
    float* out = nullptr;
    cudaMalloc((void**)&in, 4 * 64 * sizeof(float4));
    cudaMalloc((void**)&scale, 64 * sizeof(double));
    cudaMalloc((void**)&bias, 64 * sizeof(int));
    cudaMalloc((void**)&out, 64 * sizeof(float));
    tiles<<<1, 64>>>(in, scale, bias, out, 4);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(scale);
    cudaFree(bias);
    cudaFree(out);
    return 0;
}
