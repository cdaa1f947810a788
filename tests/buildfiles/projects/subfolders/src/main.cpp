// Host code only: calls the launcher of each folder's kernel.
#include <cstdio>

int launch_Stream(int* device_out);
int launch_Scale(int* device_out);
int launch_Backend(int* device_out);
int launch_Shared(int* device_out);

int main() {
  int* out = nullptr;  // launches fail without a device, which is fine here
  int failed = launch_Stream(out) + launch_Scale(out) + launch_Backend(out) + launch_Shared(out);
  std::printf("%d launches failed\n", failed);
  return 0;
}
