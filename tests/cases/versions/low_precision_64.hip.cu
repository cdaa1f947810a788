// hipport-flags: --rocm-version=6.4
// bfloat16 and 8-bit floats: hip_bf16.h (ROCm 5.7+) and hip_fp8.h (ROCm 6.4) mirror
// CUDA's headers with __hip_ names.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp8.h>

__global__ void quantize(const float* in, __hip_fp8_e4m3* out, __hip_bfloat16* mid, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    mid[i] = __float2bfloat16(in[i]);
    out[i] = __hip_fp8_e4m3(in[i]);
  }
}

__global__ void raw(const float* in, __hip_fp8_storage_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __hip_cvt_float_to_fp8(in[i], __HIP_SATFINITE, __HIP_E4M3);
  }
}

// cuda_bf16.h's typedefs without the underscores are the same types.
__global__ void pairs(const __hip_bfloat162* in, __hip_bfloat16* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i].x;
  }
}
