// Byte swaps, integer min/max, __trap and the block-scope atomics over the
// wavefront model: results against their definitions; atomics done by
// every lane of a wavefront at once against the sequential outcome.
#include <algorithm>
#include <climits>
#include <random>
#include <set>

#include "wave.h"
#include HIPPORT_FALLBACKS

namespace {

std::mt19937_64 rng(27);

template <typename T>
T swapped(T x) {
    T out = 0;
    for (unsigned i = 0; i < sizeof(T); ++i) out = static_cast<T>(out << 8 | ((x >> (8 * i)) & 0xff));
    return out;
}

void test_bswap() {
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t x = rng();
        check::expect(__nv_bswap16(static_cast<unsigned short>(x)) ==
                          swapped(static_cast<unsigned short>(x)), "__nv_bswap16");
        check::expect(__nv_bswap32(static_cast<unsigned>(x)) == swapped(static_cast<unsigned>(x)),
                      "__nv_bswap32");
        check::expect(__nv_bswap64(x) == swapped(static_cast<unsigned long long>(x)),
                      "__nv_bswap64");
    }
}

void test_integer_min_max() {
    const long long edges[] = {LLONG_MIN, LLONG_MIN + 1, -1, 0, 1, INT_MAX, LLONG_MAX};
    std::vector<std::uint64_t> values(std::begin(edges), std::end(edges));
    for (int i = 0; i < 2000; ++i) values.push_back(rng());
    for (std::uint64_t a : values) {
        for (std::uint64_t b : {values[rng() % values.size()], a, ~a}) {
            const unsigned ua = static_cast<unsigned>(a), ub = static_cast<unsigned>(b);
            const long long la = static_cast<long long>(a), lb = static_cast<long long>(b);
            check::expect(umin(ua, ub) == std::min(ua, ub) && umax(ua, ub) == std::max(ua, ub),
                          "umin/umax");
            check::expect(llmin(la, lb) == std::min(la, lb) && llmax(la, lb) == std::max(la, lb),
                          "llmin/llmax");
            check::expect(ullmin(a, b) == std::min(a, b) && ullmax(a, b) == std::max(a, b),
                          "ullmin/ullmax");
        }
    }
}

// One lane traps; the others run on.
void test_trap() {
    std::vector<int> trapped(64, 0);
    wave::run(64, ~0ull, [&] {
        try {
            if (wave::lane == 5) __trap();
        } catch (const wave::Trap&) {
            trapped[wave::lane] = 1;
        }
    });
    for (unsigned l = 0; l < 64; ++l) {
        check::expect(trapped[l] == (l == 5), "__trap on lane " + std::to_string(l));
    }
}

// Every lane of the wavefront applies op to one shared value; the final
// value is the sequential fold, and (`replay`: where every step changes the
// value, so that the old values tell the order) the old values returned
// are those of a sequence of the operations.
template <typename T, typename Call, typename Step>
void all_lanes(const char* name, T start, Call call, Step step, bool replay = true) {
    for (unsigned size : {32u, 64u}) {
        T shared = start;
        std::vector<T> olds(size);
        wave::run(size, size == 64 ? ~0ull : 0xffffffffull,
                  [&] { olds[wave::lane] = call(&shared, wave::lane); });
        T sequential = start;
        for (unsigned l = 0; l < size; ++l) sequential = step(sequential, l);
        const bool commutes = std::string(name) != "atomicExch_block";
        check::expect(!commutes || shared == sequential, std::string(name) + " final value");
        // Replaying the operations in the order of their old values reaches the final one.
        std::vector<unsigned> order(size);
        for (unsigned l = 0; l < size; ++l) order[l] = l;
        std::set<unsigned> left(order.begin(), order.end());
        T value = start;
        bool replayed = true;
        for (unsigned n = 0; n < size && replayed; ++n) {
            auto next = std::find_if(left.begin(), left.end(),
                                     [&](unsigned l) { return olds[l] == value; });
            if (next == left.end()) {
                replayed = false;
                break;
            }
            value = step(value, *next);
            left.erase(next);
        }
        check::expect(!replay || (replayed && value == shared), std::string(name) + " old values");
    }
}

void test_block_atomics() {
    all_lanes<int>("atomicAdd_block", 0, [](int* p, unsigned l) { return atomicAdd_block(p, int(l) * 3 + 1); },
                   [](int v, unsigned l) { return v + int(l) * 3 + 1; });
    all_lanes<unsigned>("atomicSub_block", 1000u, [](unsigned* p, unsigned l) { return atomicSub_block(p, l + 1); },
                        [](unsigned v, unsigned l) { return v - (l + 1); });
    all_lanes<int>("atomicExch_block", -1, [](int* p, unsigned l) { return atomicExch_block(p, int(l)); },
                   [](int, unsigned l) { return int(l); });
    all_lanes<long long>("atomicMin_block", 1000, [](long long* p, unsigned l) {
        return atomicMin_block(p, 500 - (long long)(l * 37 % 64)); },
        [](long long v, unsigned l) { return std::min(v, 500 - (long long)(l * 37 % 64)); }, false);
    all_lanes<unsigned long long>("atomicMax_block", 0ull, [](unsigned long long* p, unsigned l) {
        return atomicMax_block(p, (unsigned long long)(l * 37 % 64)); },
        [](unsigned long long v, unsigned l) { return std::max(v, (unsigned long long)(l * 37 % 64)); },
        false);
    all_lanes<unsigned>("atomicInc_block", 0u, [](unsigned* p, unsigned) { return atomicInc_block(p, 9u); },
                        [](unsigned v, unsigned) { return v >= 9u ? 0u : v + 1; });
    all_lanes<unsigned>("atomicDec_block", 3u, [](unsigned* p, unsigned) { return atomicDec_block(p, 9u); },
                        [](unsigned v, unsigned) { return (v == 0 || v > 9u) ? 9u : v - 1; });
    all_lanes<unsigned>("atomicAnd_block", ~0u, [](unsigned* p, unsigned l) { return atomicAnd_block(p, ~(1u << (l % 32))); },
                        [](unsigned v, unsigned l) { return v & ~(1u << (l % 32)); }, false);
    all_lanes<unsigned>("atomicOr_block", 0u, [](unsigned* p, unsigned l) { return atomicOr_block(p, 1u << (l % 32)); },
                        [](unsigned v, unsigned l) { return v | (1u << (l % 32)); }, false);
    all_lanes<unsigned>("atomicXor_block", 0u, [](unsigned* p, unsigned l) { return atomicXor_block(p, l * 2654435761u); },
                        [](unsigned v, unsigned l) { return v ^ (l * 2654435761u); });
    // CAS: exactly one lane swaps 0 for its value.
    for (unsigned size : {32u, 64u}) {
        int shared = 0;
        std::vector<int> olds(size);
        wave::run(size, size == 64 ? ~0ull : 0xffffffffull,
                  [&] { olds[wave::lane] = atomicCAS_block(&shared, 0, int(wave::lane) + 1); });
        const auto winners = std::count(olds.begin(), olds.end(), 0);
        check::expect(winners == 1 && shared >= 1 && olds[shared - 1] == 0, "atomicCAS_block");
    }
}

// The wrapping counters at system scope, from below, at and above the bound,
// and wrapping more than once in a wavefront.
void test_system_atomics() {
    for (unsigned start : {0u, 3u, 9u, 10u, 200u}) {
        for (unsigned bound : {0u, 1u, 9u, 20u}) {
            const std::string at = " from " + std::to_string(start) + " bound " + std::to_string(bound);
            all_lanes<unsigned>(("atomicInc_system" + at).c_str(), start,
                                [&](unsigned* p, unsigned) { return atomicInc_system(p, bound); },
                                [&](unsigned v, unsigned) { return v >= bound ? 0u : v + 1; });
            all_lanes<unsigned>(("atomicDec_system" + at).c_str(), start,
                                [&](unsigned* p, unsigned) { return atomicDec_system(p, bound); },
                                [&](unsigned v, unsigned) { return (v == 0 || v > bound) ? bound : v - 1; });
        }
    }
    // The edges of the definitions, one lane at a time.
    unsigned x = 0xffffffffu;
    check::expect(atomicInc_system(&x, 0xffffffffu) == 0xffffffffu && x == 0u, "atomicInc_system at UINT_MAX");
    x = 5u;
    check::expect(atomicInc_system(&x, 5u) == 5u && x == 0u, "atomicInc_system at the bound");
    x = 0u;
    check::expect(atomicDec_system(&x, 7u) == 0u && x == 7u, "atomicDec_system from 0");
    x = 8u;
    check::expect(atomicDec_system(&x, 7u) == 8u && x == 7u, "atomicDec_system above the bound");
}

// The pipeline primitives: every size and zero-fill against CUDA's definition
// (the first size - zfill bytes from the source, zeros up to the size, nothing
// past it); other sizes and a zero-fill above the size trap; commit and wait
// are callable as CUDA declares them and leave the data as the copy left it.
void test_pipeline_primitives() {
    static_assert(std::is_same<decltype(__pipeline_commit()), void>::value, "commit returns void");
    static_assert(std::is_same<decltype(__pipeline_wait_prior(0)), void>::value, "wait returns void");
    alignas(16) unsigned char src[32];
    alignas(16) unsigned char dst[32];
    for (int round = 0; round < 200; ++round) {
        for (std::size_t size : {4u, 8u, 16u}) {
            for (std::size_t zfill = 0; zfill <= size; ++zfill) {
                for (auto& b : src) b = static_cast<unsigned char>(rng());
                for (auto& b : dst) b = 0xa5;
                // The source's offset keeps its alignment to the size, as CUDA requires.
                const std::size_t at = size * (rng() % (16 / size + 1));
                if (zfill == 0 && round % 2 == 0) {
                    __pipeline_memcpy_async(dst, src + at, size);
                } else {
                    __pipeline_memcpy_async(dst, src + at, size, zfill);
                }
                __pipeline_commit();
                __pipeline_wait_prior(round % 9);
                bool same = true;
                for (std::size_t i = 0; i < sizeof dst; ++i) {
                    const unsigned char want = i < size - zfill ? src[at + i] : i < size ? 0 : 0xa5;
                    same = same && dst[i] == want;
                }
                check::expect(same, "__pipeline_memcpy_async size " + std::to_string(size) +
                                        " zfill " + std::to_string(zfill));
            }
        }
    }
    const std::pair<std::size_t, std::size_t> invalid[] = {{0, 0}, {1, 0}, {2, 0}, {12, 0}, {32, 0},
                                                           {4, 5}, {8, 9}, {16, 17}};
    for (auto [size, zfill] : invalid) {
        bool trapped = false;
        try {
            __pipeline_memcpy_async(dst, src, size, zfill);
        } catch (const wave::Trap&) {
            trapped = true;
        }
        check::expect(trapped, "__pipeline_memcpy_async traps on size " + std::to_string(size) +
                                   " zfill " + std::to_string(zfill));
    }
}

// The address-space conversions over the model (one flat address space on the
// host): every conversion and its way back give the pointer converted, and the
// distance of two addresses in one space is their distance in bytes.
void test_address_space_conversions() {
    static_assert(std::is_same<decltype(__cvta_generic_to_shared(nullptr)), size_t>::value, "size_t");
    static_assert(std::is_same<decltype(__cvta_shared_to_generic(0)), void*>::value, "void*");
    alignas(16) static char space[4096];
    for (std::size_t at : {0u, 1u, 4u, 128u, 4095u}) {
        char* p = space + at;
        check::expect(__cvta_shared_to_generic(__cvta_generic_to_shared(p)) == p &&
                          __cvta_global_to_generic(__cvta_generic_to_global(p)) == p &&
                          __cvta_local_to_generic(__cvta_generic_to_local(p)) == p &&
                          __cvta_constant_to_generic(__cvta_generic_to_constant(p)) == p,
                      "round trip at " + std::to_string(at));
        check::expect(__cvta_generic_to_shared(p) - __cvta_generic_to_shared(space) == at &&
                          __cvta_generic_to_global(p) - __cvta_generic_to_global(space) == at &&
                          __cvta_generic_to_local(p) - __cvta_generic_to_local(space) == at &&
                          __cvta_generic_to_constant(p) - __cvta_generic_to_constant(space) == at,
                      "distance at " + std::to_string(at));
    }
}

}  // namespace

int main(int argc, char** argv) {
    return check::drive(argc, argv, {
        {"bswap", test_bswap},
        {"integer-min-max", test_integer_min_max},
        {"trap", test_trap},
        {"block-atomics", test_block_atomics},
        {"system-atomics", test_system_atomics},
        {"pipeline-primitives", test_pipeline_primitives},
        {"address-space-conversions", test_address_space_conversions},
    });
}
