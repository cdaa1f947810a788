// The warp fallbacks over the wavefront model, against CUDA's definitions:
// each lane's result is computed directly from the values of the lanes its
// mask names. CUDA's warp is the lane's 32-lane half of a 64-lane
// wavefront (all of a 32-lane one). Masks are given the CUDA way (32 bits,
// the lane's half) and the HIP way (64 bits, the wavefront: what
// `__activemask()` becomes).
#include <climits>
#include <cmath>
#include <random>

#include "wave.h"
#include HIPPORT_FALLBACKS

namespace {

std::mt19937_64 rng(27);

// A case: the wavefront size, and each lane's CUDA mask (0: not running).
// Within a 32-lane half the masks partition the running lanes, as CUDA
// requires (each running lane names itself; lanes that name each other
// pass the same mask).
struct Case {
    unsigned size;
    std::vector<unsigned> mask;  // per lane of the wavefront
    std::uint64_t active() const {
        std::uint64_t a = 0;
        for (unsigned l = 0; l < size; ++l) if (mask[l]) a |= 1ull << l;
        return a;
    }
};

// Partitions of 32 lanes into masks: {lane -> class}, -1 not running. The
// first is the whole warp; the others leave some lanes out or split them.
std::vector<std::vector<int>> partitions() {
    std::vector<int> whole(32, 0), halves(32), parity(32), single(32, -1), some(32, -1);
    for (int l = 0; l < 32; ++l) {
        halves[l] = l / 16;
        parity[l] = l % 2;
        some[l] = (l % 3 == 0) ? 0 : -1;
    }
    single[5] = 0;
    single[31] = 1;
    std::vector<std::vector<int>> out = {whole, halves, parity, single, some};
    for (int r = 0; r < 6; ++r) {
        std::vector<int> random(32);
        const int classes = 1 + static_cast<int>(rng() % 4);
        for (auto& c : random) c = static_cast<int>(rng() % (classes + 1)) - 1;
        random[rng() % 32] = 0;  // at least one lane runs
        out.push_back(random);
    }
    return out;
}

Case make_case(unsigned size, const std::vector<int>& low, const std::vector<int>& high) {
    Case c{size, std::vector<unsigned>(size, 0)};
    for (unsigned base = 0; base < size; base += 32) {
        const auto& classes = base == 0 ? low : high;
        for (unsigned l = 0; l < 32; ++l) {
            if (classes[l] < 0) continue;
            for (unsigned k = 0; k < 32; ++k) {
                if (classes[k] == classes[l]) c.mask[base + l] |= 1u << k;
            }
        }
    }
    return c;
}

// Every lane runs one convergent path: full masks in both halves, or partial
// masks in both (a wavefront runs the other path with the first one's lanes
// switched off; the model, a thread per lane, cannot).
std::vector<Case> all_cases() {
    const auto parts = partitions();
    std::vector<Case> out;
    for (unsigned size : {32u, 64u}) {
        out.push_back(make_case(size, parts[0], parts[0]));
        for (std::size_t i = 1; i < parts.size(); ++i) {
            out.push_back(make_case(size, parts[i], parts[1 + i % (parts.size() - 1)]));
        }
    }
    return out;
}

std::string where(const Case& c, unsigned lane, bool wide) {
    char text[96];
    std::snprintf(text, sizeof text, "wave%u lane %u mask %08x%s", c.size, lane, c.mask[lane],
                  wide ? " (64-bit)" : "");
    return text;
}

// Calls f(lane, mask) on every running lane, the mask as CUDA (32 bits) or
// as HIP (64 bits, the wavefront's lanes) gives it.
template <typename F>
void on_lanes(const Case& c, bool wide, F f) {
    wave::run(c.size, c.active(), [&] {
        const unsigned l = wave::lane;
        if (wide) {
            f(l, static_cast<unsigned long long>(c.mask[l]) << (l & 32u));
        } else {
            f(l, c.mask[l]);
        }
    });
}

// The values of the lanes a lane's mask names.
template <typename T>
std::vector<T> named(const Case& c, unsigned lane, const std::vector<T>& values) {
    std::vector<T> out;
    for (unsigned k = 0; k < 32; ++k) {
        if ((c.mask[lane] >> k) & 1u) out.push_back(values[(lane & 32u) + k]);
    }
    return out;
}

template <typename T>
std::vector<T> random_values(unsigned n, std::vector<T> extremes) {
    std::vector<T> v(n);
    for (auto& x : v) {
        x = rng() % 4 == 0 ? extremes[rng() % extremes.size()] : static_cast<T>(rng());
    }
    return v;
}

void test_reduce_sync() {
    for (const Case& c : all_cases()) {
        for (bool wide : {false, true}) {
            const auto s = random_values<int>(64, {INT_MAX, INT_MIN, -1, 0, 1});
            const auto u = random_values<unsigned>(64, {UINT_MAX, 0u, 1u, 0x80000000u});
            int got_s[64][3];
            unsigned got_u[64][6];
            on_lanes(c, wide, [&](unsigned l, auto mask) {
                got_s[l][0] = __reduce_add_sync(mask, s[l]);
                got_s[l][1] = __reduce_min_sync(mask, s[l]);
                got_s[l][2] = __reduce_max_sync(mask, s[l]);
                got_u[l][0] = __reduce_add_sync(mask, u[l]);
                got_u[l][1] = __reduce_min_sync(mask, u[l]);
                got_u[l][2] = __reduce_max_sync(mask, u[l]);
                got_u[l][3] = __reduce_and_sync(mask, u[l]);
                got_u[l][4] = __reduce_or_sync(mask, u[l]);
                got_u[l][5] = __reduce_xor_sync(mask, u[l]);
            });
            for (unsigned l = 0; l < c.size; ++l) {
                if (!c.mask[l]) continue;
                const auto ns = named(c, l, s);
                const auto nu = named(c, l, u);
                unsigned sum = 0, usum = 0, all = ~0u, any = 0, parity = 0;
                int lo = INT_MAX, hi = INT_MIN;
                unsigned ulo = UINT_MAX, uhi = 0;
                for (int x : ns) {
                    sum += static_cast<unsigned>(x);  // redux.sync.add wraps
                    lo = std::min(lo, x);
                    hi = std::max(hi, x);
                }
                for (unsigned x : nu) {
                    usum += x;
                    ulo = std::min(ulo, x);
                    uhi = std::max(uhi, x);
                    all &= x;
                    any |= x;
                    parity ^= x;
                }
                const std::string at = where(c, l, wide);
                check::expect(got_s[l][0] == static_cast<int>(sum), "add(int) " + at);
                check::expect(got_s[l][1] == lo, "min(int) " + at);
                check::expect(got_s[l][2] == hi, "max(int) " + at);
                check::expect(got_u[l][0] == usum, "add(unsigned) " + at);
                check::expect(got_u[l][1] == ulo, "min(unsigned) " + at);
                check::expect(got_u[l][2] == uhi, "max(unsigned) " + at);
                check::expect(got_u[l][3] == all, "and " + at);
                check::expect(got_u[l][4] == any, "or " + at);
                check::expect(got_u[l][5] == parity, "xor " + at);
            }
        }
    }
}

template <typename T>
std::uint64_t bits(T value) {
    std::uint64_t b = 0;
    std::memcpy(&b, &value, sizeof(T));
    return b;
}

// Values drawn from a few, so that lanes match: floats with both zeros and
// two NaNs (CUDA compares bits: -0.0 is not 0.0, a NaN matches its bits).
template <typename T>
std::vector<T> few_values(unsigned n) {
    std::vector<T> pool;
    if constexpr (std::is_floating_point<T>::value) {
        T nan_a = std::nan("1"), nan_b = std::nan("2");
        pool = {T(0.0), T(-0.0), T(1.5), nan_a, nan_b};
    } else {
        pool = {T(0), T(7), T(-1), static_cast<T>(0x100000000ull), T(42)};
    }
    std::vector<T> v(n);
    for (auto& x : v) x = pool[rng() % pool.size()];
    return v;
}

template <typename T>
void match_one_type(const char* type) {
    for (const Case& c : all_cases()) {
        for (bool wide : {false, true}) {
            const auto v = few_values<T>(64);
            const bool uniform = rng() % 3 == 0;
            const auto w = uniform ? std::vector<T>(64, v[0]) : few_values<T>(64);
            unsigned any[64], all[64];
            int pred[64];
            on_lanes(c, wide, [&](unsigned l, auto mask) {
                any[l] = __match_any_sync(mask, v[l]);
                all[l] = __match_all_sync(mask, w[l], &pred[l]);
            });
            for (unsigned l = 0; l < c.size; ++l) {
                if (!c.mask[l]) continue;
                unsigned same = 0;
                bool all_same = true;
                for (unsigned k = 0; k < 32; ++k) {
                    if (!((c.mask[l] >> k) & 1u)) continue;
                    if (bits(v[(l & 32u) + k]) == bits(v[l])) same |= 1u << k;
                    if (bits(w[(l & 32u) + k]) != bits(w[l])) all_same = false;
                }
                const std::string at = std::string(type) + " " + where(c, l, wide);
                check::expect(any[l] == same, "__match_any_sync " + at);
                check::expect(all[l] == (all_same ? c.mask[l] : 0u) && pred[l] == all_same,
                              "__match_all_sync " + at);
            }
        }
    }
}

void test_match_sync() {
    match_one_type<int>("int");
    match_one_type<unsigned>("unsigned");
    match_one_type<long long>("long long");
    match_one_type<unsigned long>("unsigned long");
    match_one_type<float>("float");
    match_one_type<double>("double");
}

// Lanes exchange values through shared memory between __syncwarp calls.
void test_syncwarp() {
    for (unsigned size : {32u, 64u}) {
        for (int round = 0; round < 20; ++round) {
            std::vector<int> shared(size), got(size);
            const std::uint64_t all = size == 64 ? ~0ull : 0xffffffffull;
            wave::run(size, all, [&] {
                const unsigned l = wave::lane;
                shared[l] = static_cast<int>(l * 7 + round);
                __syncwarp();
                const int next = shared[(l & 32u) + ((l + 1) % 32)];
                __syncwarp(0xffffffffu);
                shared[l] = next;
                __syncwarp();
                got[l] = shared[l];
            });
            for (unsigned l = 0; l < size; ++l) {
                const unsigned from = (l & 32u) + ((l + 1) % 32);
                check::expect(got[l] == static_cast<int>(from * 7 + round),
                              "__syncwarp lane " + std::to_string(l));
            }
        }
    }
}

// CUDA promises a sleep between 0 and 2*ns. The model's time moves only by
// s_sleep: 64 cycles at 1 or 2 GHz; with the 100 MHz clock, and without
// one (HIP 5.x on gfx11).
void test_nanosleep() {
    for (bool has_clock : {true, false}) {
        for (long long sleep_ns : {32LL, 64LL}) {
            for (unsigned ns : {0u, 1u, 63u, 64u, 100u, 1000u, 12345u, 1000000u}) {
                wave::state.has_clock = has_clock;
                wave::state.sleep_ns = sleep_ns;
                wave::state.now_ns = 1000;
                wave::run(64, 1u, [&] { __nanosleep(ns); });
                const long long slept = wave::state.now_ns - 1000;
                const long long slack = has_clock ? 0 : sleep_ns;  // a step is the smallest sleep
                check::expect(slept >= 0 && slept <= 2LL * ns + slack,
                              "__nanosleep(" + std::to_string(ns) + ") slept " +
                                  std::to_string(slept) + " ns");
                if (has_clock) {
                    check::expect(slept + 10 >= ns, "__nanosleep(" + std::to_string(ns) +
                                                        ") woke early: " + std::to_string(slept));
                }
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    return check::drive(argc, argv, {
        {"reduce-sync", test_reduce_sync},
        {"match-sync", test_match_sync},
        {"syncwarp", test_syncwarp},
        {"nanosleep", test_nanosleep},
    });
}
