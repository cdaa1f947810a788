"""HP401-HP410: warp-size (wavefront 64) assumptions."""
from __future__ import annotations

import pytest

from tests.hazards.helpers import fixed, found, kernel

POSITIVE = [
    pytest.param("HP401", kernel("int lane = threadIdx.x % 32;"), id="401-mod-32"),
    pytest.param("HP401", kernel("int lane = threadIdx.x & 31;"), id="401-and-31"),
    pytest.param("HP401", kernel("int lane = threadIdx.x & 0x1f;"), id="401-and-hex"),
    pytest.param("HP401", kernel("int warp = threadIdx.x / 32;"), id="401-div-32"),
    pytest.param("HP401", kernel("int warp = threadIdx.x >> 5;"), id="401-shift-5"),
    pytest.param("HP401", kernel("int tid = threadIdx.x;\nint warp = tid / 32;"),
                 id="401-through-variable"),
    pytest.param("HP401", kernel("int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                 "out[gid % 32] = 1;"), id="401-global-id"),
    pytest.param("HP401", kernel("int lane = threadIdx.x % warpSize;\n"
                                 "if (lane == 31) out[0] = 1;"), id="401-last-lane"),
    pytest.param("HP401", "__device__ int f(int laneId) { return laneId != 31; }",
                 id="401-lane-named-parameter"),
    pytest.param("HP402", kernel("float v = x[0];\nfor (int o = 16; o > 0; o /= 2)\n"
                                 "  v += __shfl_down_sync(0xffffffff, v, o);"),
                 id="402-shuffle-reduction"),
    pytest.param("HP402", kernel("float v = x[0];\nfor (int i = 1; i < 32; i *= 2)\n"
                                 "  { float n = __shfl_up_sync(0xffffffff, v, i); v += n; }"),
                 id="402-scan-bound"),
    pytest.param("HP402", kernel("float v = x[0];\n#pragma unroll\nfor (int m = 16; m >= 1; "
                                 "m >>= 1) v = fmaxf(v, __shfl_xor_sync(~0u, v, m));"),
                 id="402-butterfly-unrolled"),
    pytest.param("HP403", kernel("__shared__ float part[8][32];\nint lane = threadIdx.x % "
                                 "warpSize;\npart[threadIdx.x / warpSize][lane] = x[0];"),
                 id="403-per-lane-rows"),
    pytest.param("HP403", kernel("__shared__ int slots[32];\nslots[threadIdx.x & 31] = 1;"),
                 id="403-lane-expression-index"),
    pytest.param("HP404", kernel("if (__ballot_sync(0xffffffff, x[0] > 0) == 0xffffffff) "
                                 "out[0] = 1;"), id="404-full-ballot-compare"),
    pytest.param("HP404", kernel("unsigned b = __ballot_sync(0xffffffff, x[0] > 0);\n"
                                 "if (0xFFFFFFFFu != b) out[0] = 1;"),
                 id="404-compare-variable-reversed"),
    pytest.param("HP404", kernel("int lane = threadIdx.x % 32;\nunsigned lt = (1u << lane) - 1;"),
                 id="404-lane-bit"),
    pytest.param("HP405", kernel("unsigned int b = __ballot_sync(0xffffffff, x[0] > 0);"),
                 id="405-store-unsigned-int"),
    pytest.param("HP405", kernel("uint32_t m = __activemask();"), id="405-activemask"),
    pytest.param("HP405", kernel("out[0] = __popc(__ballot_sync(0xffffffff, x[0] > 0));"),
                 id="405-popc-of-ballot"),
    pytest.param("HP405", kernel("auto b = __ballot_sync(0xffffffff, x[0] > 0);\n"
                                 "out[0] = __ffs(b & 7) - 1;"), id="405-ffs-of-masked-vote"),
    pytest.param("HP406", "__device__ void f() { auto w = cg::tiled_partition<32>(b); }",
                 id="406-tiled-partition"),
    pytest.param("HP406", "__device__ void f(cg::thread_block_tile<32> w);",
                 id="406-tile-type"),
    pytest.param("HP407", kernel("__syncwarp();"), id="407-syncwarp"),
    pytest.param("HP407", kernel("__syncwarp(0xffffffff);"), id="407-syncwarp-mask"),
    pytest.param("HP408", "__device__ void warpReduce(volatile float* s, int tid) {\n"
                 "  s[tid] += s[tid + 32];\n  s[tid] += s[tid + 16];\n}\n", id="408-classic"),
    pytest.param("HP401", kernel("int warps = blockDim.x / 32;"), id="401-warps-per-block"),
    pytest.param("HP401", kernel("int warps = (blockDim.x + 31) / 32;"),
                 id="401-warps-per-block-rounded-up"),
    pytest.param("HP401", kernel("int warps = blockDim.x >> 5;"), id="401-warps-shift"),
    pytest.param("HP409", "#define WARP_SIZE 32\n", id="409-define"),
    pytest.param("HP409", "#define WARPSIZE (32)  // threads per warp\n", id="409-define-comment"),
    pytest.param("HP409", "constexpr int kWarpSize = 32;\n", id="409-constexpr"),
    pytest.param("HP409", "static const unsigned warp_size = 32u;\n", id="409-const"),
    pytest.param("HP409", "enum { THREADS_PER_WARP = 32 };\n", id="409-enumerator"),
    pytest.param("HP410", kernel("float v = x[0];\nv += __shfl_xor_sync(FULL_MASK, v, 16, 32);"),
                 id="410-sync-width"),
    pytest.param("HP410", kernel("float v = x[0];\nv += __shfl_down(v, 1, 32);"),
                 id="410-width"),
    pytest.param("HP408", kernel("__shared__ float sm[64];\nif (threadIdx.x < 32) {\n"
                                 "  volatile float* vs = sm;\n"
                                 "  vs[threadIdx.x] = vs[threadIdx.x] + vs[threadIdx.x + 8];\n}"),
                 id="408-volatile-local-plain-assign"),
]

LOOK_ALIKES = [
    pytest.param("HP401", "void f(int i) { int b = i % 32; }", id="401-data-index"),
    pytest.param("HP401", kernel("int b = blockIdx.x % 32;"), id="401-block-index"),
    pytest.param("HP401", kernel("int b = blockIdx.x / 32;"), id="401-block-index-divided"),
    pytest.param("HP401", kernel("int h = blockDim.x / 2;"), id="401-half-a-block"),
    pytest.param("HP409", "#define BLOCK_SIZE 32\n", id="409-not-a-warp-name"),
    pytest.param("HP409", "#define WARP_SIZE 64\n", id="409-already-64"),
    pytest.param("HP409", "#define WARP_SIZE warpSize\n", id="409-from-warpsize"),
    pytest.param("HP409", "int warp_id = 32;\nint num_lanes = 16;\n",
                 id="409-other-name-other-value"),
    pytest.param("HP410", kernel("float v = x[0];\nv += __shfl_xor_sync(FULL_MASK, v, 16);"),
                 id="410-default-width"),
    pytest.param("HP410", kernel("float v = x[0];\nv += __shfl_xor_sync(FULL_MASK, v, 16, 16);"),
                 id="410-width-16"),
    pytest.param("HP410", kernel("float v = x[0];\nv += __shfl_down_sync(FULL_MASK, v, 32);"),
                 id="410-offset-32-is-not-a-width"),
    pytest.param("HP401", kernel("int n = threadIdx.x % 16;"), id="401-other-literal"),
    pytest.param("HP401", kernel("int lane = threadIdx.x % warpSize;"), id="401-uses-warpsize"),
    pytest.param("HP401", kernel("int bytes = 1 << 5;"), id="401-shift-of-constant"),
    pytest.param("HP401", kernel("int w = threadIdx.x; int y = x[0] == 31;"),
                 id="401-31-not-a-lane"),
    pytest.param("HP402", "void f(float* a) { for (int i = 0; i < 32; ++i) a[i] = 0; }",
                 id="402-plain-loop"),
    pytest.param("HP402", kernel("float v = x[0];\nfor (int o = warpSize / 2; o > 0; o /= 2)\n"
                                 "  v += __shfl_down_sync(0xffffffff, v, o);"),
                 id="402-already-warpsize"),
    pytest.param("HP402", "__device__ float f(cg::thread_block_tile<32> t, float v) {\n"
                 "  for (int o = 16; o > 0; o /= 2) v += t.shfl_down(v, o);\n  return v; }",
                 id="402-tile-member-shuffle"),
    pytest.param("HP403", kernel("__shared__ float tile[32][33];\n"
                                 "tile[threadIdx.y][threadIdx.x] = x[0];"),
                 id="403-transpose-tile"),
    pytest.param("HP403", kernel("__shared__ float sums[32];\nsums[threadIdx.x / warpSize] = 0;"),
                 id="403-one-slot-per-warp"),
    pytest.param("HP404", "void f(unsigned h) { unsigned m = h ^ 0xffffffff; "
                 "if (h == 0xffffffff) h = 0; }", id="404-mask-as-data"),
    pytest.param("HP404", kernel("unsigned b = 1u << 4;"), id="404-constant-shift"),
    pytest.param("HP404", kernel("float v = __shfl_down_sync(0xffffffff, x[0], 1);"),
                 id="404-mask-argument-handled-by-core"),
    pytest.param("HP405", kernel("int n = __popc(threadIdx.x);"), id="405-popc-of-data"),
    pytest.param("HP405", kernel("unsigned long long b = __ballot_sync(0xffffffff, x[0] > 0);"),
                 id="405-already-64-bit"),
    pytest.param("HP405", kernel("auto b = __ballot_sync(0xffffffff, x[0] > 0);\n"
                                 "int n = __popcll(b);\nint c = __popc(n);"),
                 id="405-count-stored-in-int"),
    pytest.param("HP406", "__device__ void f() { auto t = cg::tiled_partition<16>(b); }",
                 id="406-other-size"),
    pytest.param("HP407", "void syncwarp_like() { my__syncwarp(); }", id="407-other-name"),
    pytest.param("HP408", "__device__ void f(float* s, int tid) { s[tid] += s[tid + 32]; }",
                 id="408-not-volatile"),
    pytest.param("HP408", "__device__ void f(volatile int* flag) { flag[0] = 1; }",
                 id="408-volatile-flag"),
]

FIXES = [
    pytest.param(kernel("int lane = threadIdx.x % 32;"),
                 kernel("int lane = threadIdx.x % warpSize;"), id="401-mod"),
    pytest.param(kernel("int lane = threadIdx.x & 31;"),
                 kernel("int lane = threadIdx.x & (warpSize - 1);"), id="401-and"),
    pytest.param(kernel("int w = threadIdx.x + 1 >> 5;"),
                 kernel("int w = ((threadIdx.x + 1) / warpSize);"),
                 id="401-shift-keeps-precedence"),
    pytest.param(kernel("int warps = blockDim.x / 32;"),
                 kernel("int warps = blockDim.x / warpSize;"), id="401-warps-per-block"),
    pytest.param(kernel("int lane = threadIdx.x % warpSize;\nif (lane == 31) out[0] = 1;"),
                 kernel("int lane = threadIdx.x % warpSize;\n"
                        "if (lane == (warpSize - 1)) out[0] = 1;"),
                 id="401-last-lane"),
    pytest.param(kernel("float v = x[0];\nfor (int o = 16; o > 0; o /= 2)\n"
                        "  v += __shfl_down_sync(0xffffffff, v, o);"),
                 kernel("float v = x[0];\nfor (int o = warpSize / 2; o > 0; o /= 2)\n"
                        "  v += __shfl_down(v, o);"), id="402-reduction-with-renames"),
    pytest.param(kernel("float v = x[0];\nfor (int i = 1; i < 32; i *= 2) "
                        "v += __shfl_up_sync(0xffffffff, v, i);"),
                 kernel("float v = x[0];\nfor (int i = 1; i < warpSize; i *= 2) "
                        "v += __shfl_up(v, i);"), id="402-scan"),
    pytest.param(kernel("int lane = threadIdx.x % warpSize;\nunsigned lt = (1u << lane) - 1;"),
                 kernel("int lane = threadIdx.x % warpSize;\nunsigned lt = (1ull << lane) - 1;"),
                 id="404-lane-bit"),
    pytest.param(kernel("unsigned b = __ballot_sync(0xffffffff, x[0] > 0);\nout[0] = __popc(b);"),
                 kernel("unsigned long long b = __ballot(x[0] > 0);\nout[0] = __popcll(b);"),
                 id="405-store-and-count"),
    pytest.param(kernel("out[0] = __ffs(__ballot_sync(0xffffffff, x[0] > 0)) - 1;"),
                 kernel("out[0] = __ffsll(__ballot(x[0] > 0)) - 1;"), id="405-ffs"),
]


@pytest.mark.parametrize(("code", "source"), POSITIVE)
def test_found(code, source):
    assert found(source, code)


@pytest.mark.parametrize(("code", "source"), LOOK_ALIKES)
def test_look_alike_not_found(code, source):
    assert found(source, code) == []


@pytest.mark.parametrize(("before", "after"), FIXES)
def test_unsafe_fix(before, after):
    assert fixed(before) == after


@pytest.mark.parametrize(("before", "after"), FIXES)
def test_unsafe_fix_not_applied_by_default(before, after):
    out = fixed(before, unsafe=False)
    assert "warpSize / 2" not in out and "1ull" not in out and "__popcll" not in out
    assert out.count("warpSize") == before.count("warpSize")


def test_each_finding_is_reported_once_where_it_is():
    source = kernel("int lane = threadIdx.x % 32;\nint warp = threadIdx.x / 32;")
    assert found(source, "HP401") == [2, 3]


def test_suppression_comment_silences_the_hazard_on_its_line():
    source = kernel("int lane = threadIdx.x % 32;  // hipport: ignore[HP401]\n"
                    "int warp = threadIdx.x / 32;")
    assert found(source, "HP401") == [3]


def test_device_function_declared_through_a_macro_is_still_checked():
    source = "#define HD __host__ __device__\nHD inline int lane_of(int tid) { return tid % 32; }\n"
    assert found(source, "HP401") == [2]


def test_host_only_file_has_no_warp_hazards():
    # No device code anywhere: a 32 here is a bucket count, not a warp.
    source = ("int bucket(int tid) { return tid % 32; }\n"
              "bool all(unsigned m) { return m == 0xffffffff; }\n")
    assert found(source, "HP401") == [] and found(source, "HP404") == []
    assert found("__device__ " + source, "HP401") == [1]


def test_warps_per_block_rounded_up_has_no_automatic_fix():
    # `(blockDim.x + 31) / 32` -> `/ warpSize` would keep the 31: a person
    # rewrites the whole expression.
    source = kernel("int warps = (blockDim.x + 31) / 32;")
    assert fixed(source) == source


def test_warp_size_constant_is_reported_once_where_it_is_defined():
    source = ("#define WARP_SIZE 32\n" + kernel("int lane = threadIdx.x % WARP_SIZE;\n"
                                                 "int warp = threadIdx.x / WARP_SIZE;"))
    assert found(source, "HP409") == [1]
    assert found("#include \"common.h\"\nconstexpr int kWarpSize = 32;\n", "HP409") == [2]
