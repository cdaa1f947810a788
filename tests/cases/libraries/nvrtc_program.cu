// An NVRTC program: options kept in a `char*` array (CUDA's parameter is
// `const char* const*`, hipRTC's `const char**`), the kernel in a string.
#include <nvrtc.h>
#include <cuda.h>
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
    nvrtcResult status_ = (call);                                      \
    if (status_ != NVRTC_SUCCESS) {                                    \
      fprintf(stderr, "%s: %s\n", #call, nvrtcGetErrorString(status_)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

CUfunction load_saxpy(CUmodule* module) {
  nvrtcProgram prog;
  char* names[1] = {(char*)"saxpy.h"};
  char* headers[1] = {(char*)"#pragma once\n"};
  CHECK_NVRTC(nvrtcCreateProgram(&prog, kSaxpy, "saxpy.cu", 1, headers, names));
  char* options[] = {(char*)"--fmad=false", (char*)"-std=c++17"};
  int count = (int)(sizeof options / sizeof options[0]);
  nvrtcResult compiled = nvrtcCompileProgram(prog, count, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  char* log = (char*)malloc(log_size + 1);
  nvrtcGetProgramLog(prog, log);
  if (compiled != NVRTC_SUCCESS) {
    fprintf(stderr, "%s\n", log);
    exit(1);
  }
  free(log);
  size_t size = 0;
  CHECK_NVRTC(nvrtcGetCUBINSize(prog, &size));
  char* binary = (char*)malloc(size);
  CHECK_NVRTC(nvrtcGetCUBIN(prog, binary));
  CHECK_NVRTC(nvrtcDestroyProgram(&prog));
  CUfunction saxpy;
  cuModuleLoadData(module, binary);
  cuModuleGetFunction(&saxpy, *module, "saxpy");
  free(binary);
  return saxpy;
}
