#include <cuda.h>
#include <cstdio>

#define CHECK(call) do { CUresult r = (call); if (r != CUDA_SUCCESS) { \
  std::fprintf(stderr, "%s failed: %d\n", #call, (int)r); return 1; } } while (0)

int main() {
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  CUmodule module;
  CHECK(cuModuleLoad(&module, "kernel.fatbin"));
  CUfunction scale;
  CHECK(cuModuleGetFunction(&scale, module, "scale"));
  int n = 256;
  CUdeviceptr x;
  CHECK(cuMemAlloc(&x, n * sizeof(float)));
  float a = 2.0f;
  void* args[] = {&x, &a, &n};
  CHECK(cuLaunchKernel(scale, 1, 1, 1, n, 1, 1, 0, nullptr, args, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemFree(x));
  CHECK(cuModuleUnload(module));
  std::printf("ok\n");
  return 0;
}
