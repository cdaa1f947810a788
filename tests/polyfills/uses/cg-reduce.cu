// cooperative_groups::reduce over a tile and a coalesced group, with each operator.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

struct Pair {
    float lo, hi;
};

__device__ Pair widen(Pair a, Pair b) { return {a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? b.hi : a.hi}; }

__global__ void reductions(const float* in, const unsigned* bits, float* sums, unsigned* masks,
                           int* extremes, Pair* ranges) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
    const unsigned i = block.thread_rank();
    float sum = cg::reduce(warp, in[i], cg::plus<float>());
    int low = cg::reduce(eight, (int)bits[i], cg::less<int>());
    int high = cooperative_groups::reduce(warp, (int)bits[i], cooperative_groups::greater<int>());
    unsigned all = cg::reduce(warp, bits[i], cg::bit_and<unsigned>()) |
                   cg::reduce(eight, bits[i], cg::bit_or<unsigned>()) ^
                   cg::reduce(warp, bits[i], cg::bit_xor<unsigned>());
    Pair range = cg::reduce(warp, Pair{in[i], in[i]}, widen);
    if (in[i] > 0.f) {
        cg::coalesced_group active = cg::coalesced_threads();
        sum += cg::reduce(active, in[i], cg::plus<float>());
        range = cg::reduce(active, range, [](Pair a, Pair b) { return widen(a, b); });
    }
    if (warp.thread_rank() == 0) {
        sums[i / 32] = sum;
        masks[i / 32] = all;
        extremes[i / 32] = low + high;
        ranges[i / 32] = range;
    }
}
