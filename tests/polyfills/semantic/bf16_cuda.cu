// CUDA's own bfloat16 conversions (cuda_bf16.hpp, its host code: the same
// algorithm as its sm_80 device code for rn and rz, and its only one
// before sm_90 for rd and ru) on the inputs of bf16_inputs.h: the digests
// the HIP program's must equal.
#include <cuda_bf16.h>

#include <cstdio>

#include "bf16_inputs.h"

static unsigned short bits_of(__nv_bfloat16 h) {
    unsigned short b;
    std::memcpy(&b, &h, sizeof b);
    return b;
}

int main() {
    bf16_inputs::Digest rounding, pairs;
    for (float f : bf16_inputs::all()) {
        rounding.add(bits_of(__float2bfloat16_rn(f)));
        rounding.add(bits_of(__float2bfloat16_rz(f)));
        rounding.add(bits_of(__float2bfloat16_rd(f)));
        rounding.add(bits_of(__float2bfloat16_ru(f)));
        const __nv_bfloat162 both = __float2bfloat162_rn(f);
        const __nv_bfloat162 pair = __floats2bfloat162_rn(f, -f * 0.75f);
        unsigned short halves[4];
        std::memcpy(halves, &both, 4);
        std::memcpy(halves + 2, &pair, 4);
        for (unsigned short h : halves) pairs.add(h);
    }
    std::printf("digest rounding %016llx\n", static_cast<unsigned long long>(rounding.value));
    std::printf("digest pairs %016llx\n", static_cast<unsigned long long>(pairs.value));
    return 0;
}
