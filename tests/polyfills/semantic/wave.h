// A CPU model of one AMD wavefront, for running the device fallbacks of
// mappings/polyfills/ as host code: one std::thread per active lane, the
// lanes meeting at a barrier for every cross-lane operation. HIP's
// warp functions (amd_warp_functions.h) and the cooperative-groups classes
// the fallbacks use are modelled with HIP's lane arithmetic; a lane that
// reads an inactive lane gets a poison value, so a fallback that depends on
// one shows. Included before the fallbacks' code.
#pragma once

#include <atomic>
#include <bit>
#include <condition_variable>
#include <mutex>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "check.h"

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __HIP_DEVICE_COMPILE__ 1

namespace wave {

// The lanes' meeting point: a barrier that sleeps instead of spinning (the
// machine running the tests may have fewer cores than a wavefront has lanes).
class Meeting {
    std::mutex mutex_;
    std::condition_variable all_here_;
    const long lanes_;
    long waiting_ = 0;
    long phase_ = 0;

  public:
    explicit Meeting(long lanes) : lanes_(lanes) {}
    void arrive_and_wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const long phase = phase_;
        if (++waiting_ == lanes_) {
            waiting_ = 0;
            ++phase_;
            all_here_.notify_all();
            return;
        }
        all_here_.wait(lock, [&] { return phase_ != phase; });
    }
};

constexpr std::uint64_t POISON = 0xdeadbeefcafef00dull;

struct State {
    unsigned size = 64;         // lanes in the wavefront: 32 or 64
    std::uint64_t active = 0;   // the lanes running the code
    Meeting* meet = nullptr;
    std::uint64_t slots[64] = {};
    bool votes[64] = {};
    bool has_clock = true;      // wall_clock64 can be read (HIP 5.x on gfx11: no)
    long long now_ns = 0;       // time, advanced by s_sleep only
    long long sleep_ns = 32;    // one s_sleep 1: 64 cycles (32 ns at 2 GHz)
};
inline State state;
inline thread_local unsigned lane = 0;

inline bool is_active(int l) {
    return l >= 0 && l < static_cast<int>(state.size) && ((state.active >> l) & 1u);
}

// Every active lane publishes a value; each then reads the one of `source`.
template <typename T>
T exchange(T value, int source) {
    static_assert(sizeof(T) <= 8, "a register holds 8 bytes at most");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    state.slots[lane] = bits;
    state.meet->arrive_and_wait();
    const std::uint64_t got = is_active(source) ? state.slots[source] : POISON;
    state.meet->arrive_and_wait();
    T out;
    std::memcpy(&out, &got, sizeof(T));
    return out;
}

inline std::uint64_t vote(bool predicate) {
    state.votes[lane] = predicate;
    state.meet->arrive_and_wait();
    std::uint64_t mask = 0;
    for (unsigned l = 0; l < state.size; ++l) {
        if (is_active(static_cast<int>(l)) && state.votes[l]) mask |= 1ull << l;
    }
    state.meet->arrive_and_wait();
    return mask;
}

// Runs `body` on the `active` lanes of a wavefront of `size` lanes.
inline void run(unsigned size, std::uint64_t active, const std::function<void()>& body) {
    state.size = size;
    state.active = active;
    Meeting meet(std::popcount(active));
    state.meet = &meet;
    std::vector<std::thread> lanes;
    for (unsigned l = 0; l < size; ++l) {
        if ((active >> l) & 1u) {
            lanes.emplace_back([l, &body] {
                lane = l;
                body();
            });
        }
    }
    for (auto& t : lanes) t.join();
}

}  // namespace wave

// ---- HIP's device functions, over the model --------------------------------
#define warpSize (static_cast<int>(wave::state.size))

inline unsigned __lane_id() { return wave::lane; }
inline unsigned long long __ballot(int predicate) { return wave::vote(predicate != 0); }
inline int __any(int predicate) { return wave::vote(predicate != 0) != 0; }
inline int __all(int predicate) { return wave::vote(predicate != 0) == wave::state.active; }
inline unsigned __popc(unsigned x) { return std::popcount(x); }
inline unsigned __popcll(unsigned long long x) { return std::popcount(x); }
inline unsigned __ffs(unsigned x) { return x ? std::countr_zero(x) + 1 : 0; }
inline unsigned __ffs(int x) { return __ffs(static_cast<unsigned>(x)); }
inline unsigned __ffsll(unsigned long long x) { return x ? std::countr_zero(x) + 1 : 0; }
inline unsigned __ffsll(long long x) { return __ffsll(static_cast<unsigned long long>(x)); }

// amd_warp_functions.h (ROCm 6.4): the source lane of each shuffle.
template <typename T>
T __shfl(T var, int src_lane, int width = warpSize) {
    const int self = static_cast<int>(__lane_id());
    return wave::exchange(var, (src_lane & (width - 1)) + (self & ~(width - 1)));
}
template <typename T>
T __shfl_xor(T var, int lane_mask, int width = warpSize) {
    const int self = static_cast<int>(__lane_id());
    int index = self ^ lane_mask;
    index = index >= ((self + width) & ~(width - 1)) ? self : index;
    return wave::exchange(var, index);
}
template <typename T>
T __shfl_up(T var, unsigned lane_delta, int width = warpSize) {
    const int self = static_cast<int>(__lane_id());
    int index = self - static_cast<int>(lane_delta);
    index = (index < (self & ~(width - 1))) ? self : index;
    return wave::exchange(var, index);
}
template <typename T>
T __shfl_down(T var, unsigned lane_delta, int width = warpSize) {
    const int self = static_cast<int>(__lane_id());
    int index = self + static_cast<int>(lane_delta);
    index = static_cast<int>((self & (width - 1)) + lane_delta) >= width ? self : index;
    return wave::exchange(var, index);
}

#define __builtin_amdgcn_wave_barrier() wave::state.meet->arrive_and_wait()
#define __builtin_amdgcn_fence(order, scope) std::atomic_thread_fence(std::memory_order_seq_cst)
#define __builtin_amdgcn_s_sleep(n) (wave::state.now_ns += (n) * wave::state.sleep_ns)
inline long long wall_clock64() { return wave::state.has_clock ? wave::state.now_ns / 10 : -1; }

// ---- HIP's cooperative groups, as far as the fallbacks use them -------------
// HIP's group shuffles take arithmetic types only: so do these.
namespace cooperative_groups {
template <unsigned N, typename Parent = void>
class thread_block_tile {
  public:
    unsigned size() const { return N; }
    unsigned thread_rank() const { return __lane_id() & (N - 1); }
    template <typename T>
    T shfl_xor(T var, unsigned lane_mask) const {
        static_assert(std::is_arithmetic<T>::value, "HIP's tile shuffles take arithmetic types");
        return __shfl_xor(var, static_cast<int>(lane_mask), static_cast<int>(N));
    }
};
class coalesced_group {
    std::uint64_t members_;

  public:
    explicit coalesced_group(std::uint64_t members) : members_(members) {}
    unsigned size() const { return std::popcount(members_); }
    unsigned thread_rank() const {
        return std::popcount(members_ & ((1ull << __lane_id()) - 1));
    }
    // amd_hip_cooperative_groups.h: the rank's lane by __fns64 over the members.
    template <typename T>
    T shfl(T var, int src_rank) const {
        static_assert(std::is_arithmetic<T>::value, "HIP's group shuffles take arithmetic types");
        src_rank = src_rank % static_cast<int>(size());
        int source = -1;
        for (unsigned l = 0, seen = 0; l < 64; ++l) {
            if (((members_ >> l) & 1u) && static_cast<int>(seen++) == src_rank) {
                source = static_cast<int>(l);
                break;
            }
        }
        return wave::exchange(var, source);
    }
};
inline coalesced_group coalesced_threads() { return coalesced_group(__ballot(1)); }
}  // namespace cooperative_groups

// ---- HIP's atomics, as the block-scope fallbacks call them -----------------
namespace wave {
struct Trap {};
template <typename T, typename F>
T atomic_update(T* address, F next) {
    std::atomic_ref<T> ref(*address);
    T old = ref.load();
    while (!ref.compare_exchange_weak(old, next(old))) {
    }
    return old;
}
}  // namespace wave
#define __builtin_trap() throw wave::Trap()

template <typename T> T atomicAdd(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o + v; }); }
template <typename T> T atomicSub(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o - v; }); }
template <typename T> T atomicExch(T* a, T v) { return wave::atomic_update(a, [&](T) { return v; }); }
template <typename T> T atomicMin(T* a, T v) { return wave::atomic_update(a, [&](T o) { return v < o ? v : o; }); }
template <typename T> T atomicMax(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o < v ? v : o; }); }
template <typename T> T atomicAnd(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o & v; }); }
template <typename T> T atomicOr(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o | v; }); }
template <typename T> T atomicXor(T* a, T v) { return wave::atomic_update(a, [&](T o) { return o ^ v; }); }
// CUDA's and HIP's definitions of the wrapping increment and decrement.
inline unsigned atomicInc(unsigned* a, unsigned v) {
    return wave::atomic_update(a, [&](unsigned o) { return o >= v ? 0u : o + 1; });
}
inline unsigned atomicDec(unsigned* a, unsigned v) {
    return wave::atomic_update(a, [&](unsigned o) { return (o == 0 || o > v) ? v : o - 1; });
}
template <typename T> T atomicCAS(T* a, T compare, T v) {
    return wave::atomic_update(a, [&](T o) { return o == compare ? v : o; });
}
// HIP's scoped atomic builtins, as the _system fallbacks call them (every
// scope is the whole machine here).
#define __HIP_MEMORY_SCOPE_SYSTEM 5
namespace wave {
template <typename T> T atomic_load(T* a) { return std::atomic_ref<T>(*a).load(); }
template <typename T> bool atomic_cas(T* a, T* expected, T desired) {
    return std::atomic_ref<T>(*a).compare_exchange_strong(*expected, desired);
}
}  // namespace wave
// (macros: Clang knows the builtins' names on the host too)
#define __hip_atomic_load(a, order, scope) wave::atomic_load(a)
#define __hip_atomic_compare_exchange_strong(a, expected, desired, success, failure, scope) \
    wave::atomic_cas(a, expected, desired)
