#include "rtc_helpers.h"

static const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

int main(int argc, char** argv) {
  if (argc < 2) {  // built, not run: the build machines have no GPU
    printf("usage: %s run\n", argv[0]);
    return 0;
  }
  std::vector<char> binary = compile_source(kSaxpy, "saxpy.cu", {"-lineinfo"});
  cuInit(0);
  CUdevice device;
  cuDeviceGet(&device, 0);
  CUcontext context;
  cuCtxCreate(&context, 0, device);
  CUmodule module;
  cuModuleLoadData(&module, binary.data());
  CUfunction saxpy;
  cuModuleGetFunction(&saxpy, module, "saxpy");
  const int n = 1024;
  CUdeviceptr x, y;
  cuMemAlloc(&x, n * sizeof(float));
  cuMemAlloc(&y, n * sizeof(float));
  std::vector<float> host(n, 1.0f);
  cuMemcpyHtoD(x, host.data(), n * sizeof(float));
  cuMemcpyHtoD(y, host.data(), n * sizeof(float));
  float a = 2.0f;
  int count = n;
  void* args[] = {&a, &x, &y, &count};
  cuLaunchKernel(saxpy, n / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL);
  cuMemcpyDtoH(host.data(), y, n * sizeof(float));
  printf("y[0] = %g\n", host[0]);
  cuMemFree(x);
  cuMemFree(y);
  cuModuleUnload(module);
  cuCtxDestroy(context);
  return host[0] == 3.0f ? 0 : 1;
}
