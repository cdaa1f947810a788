// The floats the bfloat16 fallbacks are checked on, the same for the HIP
// program and for the CUDA program built with nvcc from CUDA's own
// cuda_bf16.hpp (its host code): every exponent and sign with the low
// 16 bits that decide the rounding (ties, just above and below), the
// special values, and a million random bit patterns.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace bf16_inputs {

inline float from_bits(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline std::vector<float> all() {
    std::vector<float> out;
    const std::uint32_t lows[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x4000, 0xc000};
    const std::uint32_t highs[] = {0x00, 0x01, 0x3f, 0x40, 0x7e, 0x7f};
    for (std::uint32_t sign = 0; sign < 2; ++sign) {
        for (std::uint32_t exponent = 0; exponent < 256; ++exponent) {
            for (std::uint32_t high : highs) {
                for (std::uint32_t low : lows) {
                    out.push_back(from_bits(sign << 31 | exponent << 23 | high << 16 | low));
                }
            }
        }
    }
    std::uint64_t state = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 1000000; ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push_back(from_bits(static_cast<std::uint32_t>(state >> 16)));
    }
    return out;
}

// FNV-1a over 16-bit results.
struct Digest {
    std::uint64_t value = 0xcbf29ce484222325ull;
    void add(std::uint16_t bits) {
        for (int i = 0; i < 2; ++i) {
            value ^= (bits >> (8 * i)) & 0xffu;
            value *= 0x100000001b3ull;
        }
    }
};

}  // namespace bf16_inputs
