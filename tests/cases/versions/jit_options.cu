// CUjit_option is hipJitOption on every ROCm release: CU_JIT_* become its enumerators.
#include <cuda.h>

CUresult load(CUmodule* module, const void* image) {
  char log[4096];
  CUjit_option options[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void* values[] = {log, (void*)(size_t)sizeof(log), (void*)(size_t)3};
  return cuModuleLoadDataEx(module, image, 3, options, values);
}
