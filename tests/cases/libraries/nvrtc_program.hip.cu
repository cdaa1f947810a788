// An NVRTC program: options kept in a `char*` array (CUDA's parameter is
// `const char* const*`, hipRTC's `const char**`), the kernel in a string.
#include <hip/hiprtc.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

#define CHECK_NVRTC(call)                                              \
  do {                                                                 \
    hiprtcResult status_ = (call);                                      \
    if (status_ != HIPRTC_SUCCESS) {                                    \
      fprintf(stderr, "%s: %s\n", #call, hiprtcGetErrorString(status_)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

hipFunction_t load_saxpy(hipModule_t* module) {
  hiprtcProgram prog;
  char* names[1] = {(char*)"saxpy.h"};
  char* headers[1] = {(char*)"#pragma once\n"};
  CHECK_NVRTC(hiprtcCreateProgram(&prog, kSaxpy, "saxpy.cu", 1, (const char**)headers, (const char**)names));
  char* options[] = {(char*)"-ffp-contract=off", (char*)"-std=c++17"};
  int count = (int)(sizeof options / sizeof options[0]);
  hiprtcResult compiled = hiprtcCompileProgram(prog, count, (const char**)options);
  size_t log_size = 0;
  hiprtcGetProgramLogSize(prog, &log_size);
  char* log = (char*)malloc(log_size + 1);
  hiprtcGetProgramLog(prog, log);
  if (compiled != HIPRTC_SUCCESS) {
    fprintf(stderr, "%s\n", log);
    exit(1);
  }
  free(log);
  size_t size = 0;
  CHECK_NVRTC(hiprtcGetCodeSize(prog, &size));
  char* binary = (char*)malloc(size);
  CHECK_NVRTC(hiprtcGetCode(prog, binary));
  CHECK_NVRTC(hiprtcDestroyProgram(&prog));
  hipFunction_t saxpy;
  hipModuleLoadData(module, binary);
  hipModuleGetFunction(&saxpy, *module, "saxpy");
  free(binary);
  return saxpy;
}
