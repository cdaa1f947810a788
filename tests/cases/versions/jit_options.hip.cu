// CUjit_option is hipJitOption on every ROCm release: CU_JIT_* become its enumerators.
#include <hip/hip_runtime.h>

hipError_t load(hipModule_t* module, const void* image) {
  char log[4096];
  hipJitOption options[] = {hipJitOptionInfoLogBuffer, hipJitOptionInfoLogBufferSizeBytes,
                            hipJitOptionOptimizationLevel};
  void* values[] = {log, (void*)(size_t)sizeof(log), (void*)(size_t)3};
  return hipModuleLoadDataEx(module, image, 3, options, values);
}
