// hipport-flags: --rocm-version=6.4
// hipport-oracles: rocm-6.4 rocm-7.2
// The driver's JIT linker: ROCm 6.4 has hipLink* with the driver's shape (hipError_t,
// hipJitOption); hiprtcLink* return hiprtcResult, and HIP 5.x has no hipLink*.
#include <hip/hip_runtime.h>

hipError_t link_ptx(void* ptx, size_t size, void** cubin, size_t* cubin_size) {
  hipLinkState_t state;
  hipJitOption options[] = {hipJitOptionMaxRegisters, hipJitOptionLogVerbose};
  void* values[] = {(void*)(size_t)64, (void*)(size_t)1};
  hipError_t err = hipLinkCreate(2, options, values, &state);
  if (err != hipSuccess) return err;
  err = hipLinkAddData(state, hipJitInputPtx, ptx, size, "kernel.ptx", 0, nullptr, nullptr);
  if (err == hipSuccess) err = hipLinkComplete(state, cubin, cubin_size);
  hipLinkDestroy(state);
  return err;
}
