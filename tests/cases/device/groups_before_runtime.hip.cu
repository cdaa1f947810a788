// Cooperative groups included before the runtime (and the runtime only
// through its API header): HIP 5.x's hip_cooperative_groups.h needs
// hip_runtime.h first, so the conversion puts it at the top.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime_api.h>

namespace cg = cooperative_groups;

__global__ void scale(float* x, float a, int n) {
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
    block.sync();
}

int launch(float* x, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
    return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
