// Visual Studio's formatter spaces the launch chevrons; nvcc reads them,
// clang (hipcc) reads only the `<<<` and `>>>` tokens.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

__global__ void sum_reduction(int* v, int* v_r) { v_r[blockIdx.x] = v[threadIdx.x]; }

template <int N> __global__ void fill(int* v) { v[threadIdx.x] = N; }

int main() {
    std::vector<std::vector<int> > nested(2);
    int shift = 1 << 3;  // a shift, then a comparison: not a launch
    bool less = shift << 1 < 32;
    int *d_v = nullptr, *d_v_r = nullptr;
    cudaMalloc(&d_v, 256 * sizeof(int));
    cudaMalloc(&d_v_r, 256 * sizeof(int));
    sum_reduction << <1, 256 >> > (d_v, d_v_r);
    fill<3> << <dim3(1), dim3(256), 0 >> > (d_v);
    sum_reduction<<<1, 256>>>(d_v, d_v_r);  // already joined
    // sum_reduction << <1, 256 >> > (d_v, d_v_r); in a comment: unchanged
    printf("<< <1, 256 >> > (x) in a string: unchanged %d %d\n", (int)nested.size(), less);
    cudaDeviceSynchronize();
    cudaFree(d_v);
    cudaFree(d_v_r);
    return 0;
}
