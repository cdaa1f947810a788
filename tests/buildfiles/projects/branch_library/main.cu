// A plan made and destroyed: enough to need cuFFT (hipFFT) at the link.
#include <cstdio>
#include <cufft.h>

int main() {
  cufftHandle plan;
  if (cufftPlan1d(&plan, 256, CUFFT_C2C, 1) != CUFFT_SUCCESS) {
    std::printf("no plan (no GPU)\n");
    return 0;
  }
  cufftDestroy(plan);
  return 0;
}
