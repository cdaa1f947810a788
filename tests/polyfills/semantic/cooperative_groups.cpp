// cg::reduce over the wavefront model, against CUDA 13's algorithm computed
// directly on arrays (details/coalesced_reduce.h, coalesced_scan.h,
// reduce.h): a butterfly over a tile's lanes (16 down to 1 within each 32
// lanes, then across them), and for a coalesced group a rank-ordered
// inclusive scan whose last value every lane gets (a whole 32-lane group
// takes the butterfly). Floating-point sums are compared bit for bit; the
// integer operators also against a plain fold, whatever the order.
#include <climits>
#include <cmath>
#include <random>

#include "wave.h"
#include HIPPORT_FALLBACKS

namespace cg = cooperative_groups;

namespace {

std::mt19937_64 rng(27);

struct Pair {
    float lo, hi;
};
struct Three {
    short a, b, c;  // 6 bytes: two 4-byte words with padding in the shuffle
};

Pair widen(Pair x, Pair y) { return {x.lo < y.lo ? x.lo : y.lo, x.hi < y.hi ? y.hi : x.hi}; }
// Not commutative: the order of the operands shows.
Three mix(Three x, Three y) {
    return {static_cast<short>(x.a * 3 + y.a), static_cast<short>(x.b - y.b),
            static_cast<short>(x.c ^ (y.c << 1))};
}

template <typename T>
bool same(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

float random_float() {
    // magnitudes far apart, so that the order of the additions shows
    const float scale = std::ldexp(1.0f, static_cast<int>(rng() % 40) - 20);
    return scale * (static_cast<float>(rng() % 2000001) / 1000000.0f - 1.0f);
}

// CUDA's butterfly for a tile of n lanes, every lane's result.
template <typename T, typename Op>
std::vector<T> butterfly(std::vector<T> v, unsigned n, Op op) {
    auto step = [&](unsigned lanes) {
        std::vector<T> next(v.size());
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::size_t tile = i / n * n, partner = tile + ((i - tile) ^ lanes);
            next[i] = op(v[i], v[partner]);
        }
        v = next;
    };
    for (unsigned lanes = n > 32 ? 16 : n / 2; lanes > 0; lanes >>= 1) step(lanes);
    for (unsigned lanes = n / 2; lanes >= 32; lanes >>= 1) step(lanes);
    return v;
}

// CUDA's coalesced reduce over the values in rank order: each rank's result.
template <typename T, typename Op>
std::vector<T> coalesced(std::vector<T> v, Op op) {
    const std::size_t n = v.size();
    if (n == 32 || n == 64) return butterfly(v, static_cast<unsigned>(n), op);
    for (std::size_t distance = 1; distance < n; distance <<= 1) {
        std::vector<T> next = v;
        for (std::size_t r = distance; r < n; ++r) next[r] = op(v[r], v[r - distance]);
        v = next;
    }
    return std::vector<T>(n, v[n - 1]);
}

template <unsigned N, typename T, typename Op, typename Make>
void tile_case(unsigned size, Op op, Make make, const char* what) {
    for (int round = 0; round < 4; ++round) {
        std::vector<T> in(size);
        for (auto& x : in) x = make();
        std::vector<T> got(size);
        wave::run(size, size == 64 ? ~0ull : 0xffffffffull, [&] {
            const cg::thread_block_tile<N> tile;
            got[wave::lane] = cg::reduce(tile, in[wave::lane], op);
        });
        const auto want = butterfly(in, N, op);
        for (unsigned l = 0; l < size; ++l) {
            check::expect(same(got[l], want[l]), std::string(what) + " tile " +
                                                     std::to_string(N) + " wave" +
                                                     std::to_string(size) + " lane " +
                                                     std::to_string(l));
        }
    }
}

template <unsigned N>
void tiles_of(unsigned size) {
    auto ints = [] { return static_cast<int>(rng()); };
    auto uints = [] { return static_cast<unsigned>(rng()); };
    auto pairs = [] { const float f = random_float(); return Pair{f, f}; };
    auto threes = [] { return Three{static_cast<short>(rng()), static_cast<short>(rng()),
                                    static_cast<short>(rng())}; };
    tile_case<N, float>(size, cg::plus<float>(), random_float, "plus<float>");
    tile_case<N, double>(size, cg::plus<double>(), [] { return double(random_float()) / 3; },
                         "plus<double>");
    tile_case<N, int>(size, cg::plus<int>(), [] { return static_cast<int>(rng() % 1000); },
                      "plus<int>");
    tile_case<N, int>(size, cg::less<int>(), ints, "less<int>");
    tile_case<N, float>(size, cg::greater<float>(), random_float, "greater<float>");
    tile_case<N, unsigned>(size, cg::bit_and<unsigned>(), uints, "bit_and");
    tile_case<N, unsigned>(size, cg::bit_or<unsigned>(), uints, "bit_or");
    tile_case<N, unsigned>(size, cg::bit_xor<unsigned>(), uints, "bit_xor");
    tile_case<N, Pair>(size, widen, pairs, "Pair");
    tile_case<N, Three>(size, [](Three a, Three b) { return mix(a, b); }, threes, "Three");
}

void coalesced_cases(unsigned size) {
    std::vector<std::uint64_t> actives = {size == 64 ? ~0ull : 0xffffffffull, 1ull,
                                          0xffffffffull, 0x5555ull, 0x8000000000000001ull};
    for (int r = 0; r < 12; ++r) actives.push_back(rng() | 1ull);
    for (std::uint64_t active : actives) {
        if (size == 32) active &= 0xffffffffull;
        std::vector<float> in(size);
        std::vector<Three> in3(size);
        for (auto& x : in) x = random_float();
        for (auto& x : in3) x = Three{static_cast<short>(rng()), static_cast<short>(rng()), 1};
        std::vector<float> got(size);
        std::vector<int> got_min(size);
        std::vector<Three> got3(size);
        wave::run(size, active, [&] {
            const unsigned l = wave::lane;
            const cg::coalesced_group group = cg::coalesced_threads();
            got[l] = cg::reduce(group, in[l], cg::plus<float>());
            got_min[l] = cg::reduce(group, static_cast<int>(in[l] * 1000), cg::less<int>());
            got3[l] = cg::reduce(group, in3[l], [](Three a, Three b) { return mix(a, b); });
        });
        std::vector<float> ranked;
        std::vector<Three> ranked3;
        int lowest = INT_MAX;
        for (unsigned l = 0; l < size; ++l) {
            if (!((active >> l) & 1u)) continue;
            ranked.push_back(in[l]);
            ranked3.push_back(in3[l]);
            lowest = std::min(lowest, static_cast<int>(in[l] * 1000));
        }
        const auto want = coalesced(ranked, cg::plus<float>());
        const auto want3 = coalesced(ranked3, mix);
        for (unsigned l = 0, rank = 0; l < size; ++l) {
            if (!((active >> l) & 1u)) continue;
            const unsigned r = rank++;
            const std::string at = " coalesced " + std::to_string(ranked.size()) + " of wave" +
                                   std::to_string(size) + " lane " + std::to_string(l);
            check::expect(same(got[l], want[r]), "plus<float>" + at);
            check::expect(got_min[l] == lowest, "less<int>" + at);
            check::expect(same(got3[l], want3[r]), "Three" + at);
        }
    }
}

void test_cg_reduce() {
    for (unsigned size : {32u, 64u}) {
        tiles_of<2>(size);
        tiles_of<4>(size);
        tiles_of<8>(size);
        tiles_of<16>(size);
        tiles_of<32>(size);
        coalesced_cases(size);
    }
    tiles_of<64>(64);
}

}  // namespace

int main(int argc, char** argv) {
    return check::drive(argc, argv, {{"cg-reduce", test_cg_reduce}});
}
