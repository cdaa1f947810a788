// Byte swaps of 16, 32 and 64 bits, on the device and on the host.
#include <cuda_runtime.h>

__global__ void to_big_endian(const unsigned* in, unsigned* out, unsigned long long* wide,
                              unsigned short* narrow) {
    const unsigned i = threadIdx.x;
    out[i] = __nv_bswap32(in[i]);
    wide[i] = __nv_bswap64(wide[i]);
    narrow[i] = __nv_bswap16(narrow[i]);
}

unsigned host_swap(unsigned x) { return __nv_bswap32(x); }
