// Shared-memory addresses for a swizzled layout and a round trip through every state space.
#include <cuda_runtime.h>

__global__ void addresses(const float* in, const float* table, size_t* out) {
    __shared__ float tile[256];
    float local[4];
    const unsigned t = threadIdx.x;
    tile[t] = in[t];
    local[t % 4] = in[t];
    const size_t base = __cvta_generic_to_shared(tile);
    const size_t mine = __cvta_generic_to_shared(&tile[t]);
    const unsigned bank = (unsigned)((mine - base) / 4) % 32;
    float* back = static_cast<float*>(__cvta_shared_to_generic(mine));
    const size_t global = __cvta_generic_to_global(in + t);
    const float* again = static_cast<const float*>(__cvta_global_to_generic(global));
    const size_t priv = __cvta_generic_to_local(&local[t % 4]);
    float* home = static_cast<float*>(__cvta_local_to_generic(priv));
    const size_t constant = __cvta_generic_to_constant(table);
    const float* kept = static_cast<const float*>(__cvta_constant_to_generic(constant));
    out[t] = bank + (back == &tile[t]) + (again == in + t) + (home == &local[t % 4]) + (kept == table);
}

int main() {
    float* in = nullptr;
    size_t* out = nullptr;
    cudaMalloc((void**)&in, 256 * sizeof(float));
    cudaMalloc((void**)&out, 256 * sizeof(size_t));
    addresses<<<1, 256>>>(in, in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}
