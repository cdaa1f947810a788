#include <cstdio>
#include "table.cuh"

int main() {
  const unsigned int host[4] = {1, 2, 3, 4};
  if (upload_table(host) != cudaSuccess) return 1;
  unsigned int* out = nullptr;
  if (cudaMalloc(&out, sizeof(host)) != cudaSuccess) return 1;
  run_lookup(out);
  unsigned int back[4] = {};
  cudaMemcpy(back, out, sizeof(back), cudaMemcpyDeviceToHost);
  std::printf("%u %u %u %u\n", back[0], back[1], back[2], back[3]);
  cudaFree(out);
  return 0;
}
