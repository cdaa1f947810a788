// hipport-flags: --rocm-version=6.4
// hipport-oracles: rocm-6.4 rocm-7.2
// The driver's JIT linker: ROCm 6.4 has hipLink* with the driver's shape (hipError_t,
// hipJitOption); hiprtcLink* return hiprtcResult, and HIP 5.x has no hipLink*.
#include <cuda.h>

CUresult link_ptx(void* ptx, size_t size, void** cubin, size_t* cubin_size) {
  CUlinkState state;
  CUjit_option options[] = {CU_JIT_MAX_REGISTERS, CU_JIT_LOG_VERBOSE};
  void* values[] = {(void*)(size_t)64, (void*)(size_t)1};
  CUresult err = cuLinkCreate(2, options, values, &state);
  if (err != CUDA_SUCCESS) return err;
  err = cuLinkAddData(state, CU_JIT_INPUT_PTX, ptx, size, "kernel.ptx", 0, nullptr, nullptr);
  if (err == CUDA_SUCCESS) err = cuLinkComplete(state, cubin, cubin_size);
  cuLinkDestroy(state);
  return err;
}
