// hipport-flags: --rocm-version=6.4
// bfloat16 and 8-bit floats: hip_bf16.h (ROCm 5.7+) and hip_fp8.h (ROCm 6.4) mirror
// CUDA's headers with __hip_ names.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

__global__ void quantize(const float* in, __nv_fp8_e4m3* out, __nv_bfloat16* mid, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    mid[i] = __float2bfloat16(in[i]);
    out[i] = __nv_fp8_e4m3(in[i]);
  }
}

__global__ void raw(const float* in, __nv_fp8_storage_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __nv_cvt_float_to_fp8(in[i], __NV_SATFINITE, __NV_E4M3);
  }
}

// cuda_bf16.h's typedefs without the underscores are the same types.
__global__ void pairs(const nv_bfloat162* in, nv_bfloat16* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i].x;
  }
}
