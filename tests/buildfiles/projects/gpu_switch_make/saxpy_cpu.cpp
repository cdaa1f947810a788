#include <cstdio>

int main() {
    float x[4] = {1, 2, 3, 4}, y[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) y[i] += 2.f * x[i];
    std::printf("%g\n", y[3]);
    return 0;
}
