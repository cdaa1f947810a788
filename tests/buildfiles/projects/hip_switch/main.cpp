#include <cstdio>
#include "scale.h"

int main() {
  float x[4] = {1, 2, 3, 4};
  float sum = scale(x, 4, 2.0f);
  std::printf("%g %g\n", x[3], sum);
  return 0;
}
