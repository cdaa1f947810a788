// Shared by the programs of a project: compile a kernel source with NVRTC
// and return the device binary a module loads.
#pragma once
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <vector>

inline void check(nvrtcResult status, const char* what) {
  if (status != NVRTC_SUCCESS) {
    fprintf(stderr, "%s: %s\n", what, nvrtcGetErrorString(status));
    exit(1);
  }
}

inline std::vector<char> compile_source(const char* source, const char* name,
                                        std::vector<std::string> extra) {
  nvrtcProgram prog;
  check(nvrtcCreateProgram(&prog, source, name, 0, NULL, NULL), "nvrtcCreateProgram");
  std::vector<std::string> options = {"--gpu-architecture=compute_80", "--fmad=false"};
  options.insert(options.end(), extra.begin(), extra.end());
  char* opts[16];
  int count = 0;
  for (std::string& option : options) opts[count++] = &option[0];
  nvrtcResult compiled = nvrtcCompileProgram(prog, count, opts);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  std::string log(log_size, '\0');
  nvrtcGetProgramLog(prog, &log[0]);
  if (compiled != NVRTC_SUCCESS) {
    fprintf(stderr, "%s\n", log.c_str());
    exit(1);
  }
  size_t size = 0;
  check(nvrtcGetCUBINSize(prog, &size), "nvrtcGetCUBINSize");
  std::vector<char> binary(size);
  check(nvrtcGetCUBIN(prog, binary.data()), "nvrtcGetCUBIN");
  nvrtcDestroyProgram(&prog);
  return binary;
}
