"""HP321, HP322 (issue 33 §5): ROCm 7's `warpSize` is not a constant
expression, so it is reported where C++ needs one, and no rewrite of
hipport's puts it there."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.hazards.helpers import fixed, found, kernel
from tests.toolchain import HipOracle, compile_hip, require_hip_oracle

CONSTANT_USES = [
    pytest.param(kernel("__shared__ float s[warpSize];\ns[threadIdx.x] = x[0];"),
                 "an array bound", id="array-bound"),
    pytest.param(kernel("__shared__ float s[8][warpSize / 2];\ns[0][0] = x[0];"),
                 "an array bound", id="array-bound-expression"),
    pytest.param("template <int W> struct Tile {};\n" + kernel("Tile<warpSize> t;"),
                 "a template argument", id="template-argument"),
    pytest.param("template <int W = warpSize> __device__ int width() { return W; }\n",
                 "a template parameter's default", id="template-default"),
    pytest.param(kernel('static_assert(warpSize == 64, "CDNA");'), "a static_assert",
                 id="static-assert"),
    pytest.param(kernel("constexpr int lanes = warpSize;\nout[0] = lanes;"),
                 "a constexpr initialiser", id="constexpr"),
    pytest.param("struct Sizes { static constexpr int lanes = warpSize; };\n",
                 "a constexpr initialiser", id="constexpr-member"),
    pytest.param(kernel("switch (threadIdx.x) { case warpSize - 1: out[0] = 1; break; }"),
                 "a case label", id="case-label"),
    pytest.param("enum { kLanes = warpSize };\n", "an enumerator's value", id="enumerator"),
    pytest.param(kernel("if constexpr (warpSize == 64) out[0] = 1;"),
                 "an if constexpr condition", id="if-constexpr"),
]


@pytest.mark.parametrize(("source", "where"), CONSTANT_USES)
def test_warp_size_in_a_constant_expression_is_reported(source: str, where: str):
    result = convert_source(source)
    (finding,) = [f for f in result.findings if f.code == "HP321"]
    assert f"`warpSize` in {where}: ROCm 7's warpSize is not a constant expression" \
        in finding.finding.message
    assert "__GFX9__" in finding.finding.message
    assert result.output == source.encode() or b"hip_runtime.h" in result.output


LOOK_ALIKES = [
    pytest.param(kernel("int lane = threadIdx.x % warpSize;\nout[lane] = 1;"), id="modulo"),
    pytest.param(kernel("const int lanes = warpSize;\nout[0] = lanes;"), id="const-not-constexpr"),
    pytest.param(kernel("out[warpSize - 1] = 1;"), id="subscript"),
    pytest.param(kernel("float* s = new float[warpSize];\nout[0] = s[0] > 0;"), id="new-array"),
    pytest.param(kernel("for (int o = warpSize / 2; o > 0; o /= 2) out[0] += o;"),
                 id="loop-bound"),
    pytest.param(kernel("if (warpSize == 64) out[0] = 1;"), id="plain-if"),
    pytest.param(kernel("switch (threadIdx.x % warpSize) { case 0: out[0] = 1; break; }"),
                 id="switch-on-lane"),
    pytest.param("#define warpSize 64\n" + kernel("__shared__ float s[warpSize];"),
                 id="the-projects-own-macro"),
    pytest.param(kernel("constexpr int lanes = kWarpWidth;\nout[0] = lanes;"),
                 id="other-constant"),
]


@pytest.mark.parametrize("source", LOOK_ALIKES)
def test_warp_size_read_at_run_time_is_not_reported(source: str):
    assert found(source, "HP321") == []


CONSTANT_ARITHMETIC = kernel("__shared__ float rows[kLanes / 32][33];\n"
                             "int lane = threadIdx.x % 32;\n"
                             "rows[threadIdx.x / 32][lane] = x[0];", "int* out, const float* x")


def test_lane_arithmetic_in_an_array_bound_gets_no_warp_size_fix():
    """HP401's fix would write `rows[kLanes / warpSize]`, an array bound ROCm
    7 rejects; the same arithmetic in run-time code still gets its fix."""
    result = convert_source(CONSTANT_ARITHMETIC)
    codes = {f.code: f for f in result.findings}
    assert codes["HP322"].location.line == 2 and codes["HP322"].finding.fix is None
    assert "`kLanes / 32` in an array bound" in codes["HP322"].finding.message
    assert [f.location.line for f in result.findings if f.code == "HP401"] == [3, 4]
    out = fixed(CONSTANT_ARITHMETIC)
    assert "rows[kLanes / 32][33]" in out  # the look-alike: left as it was
    assert "threadIdx.x % warpSize" in out and "rows[threadIdx.x / warpSize]" in out


def test_no_unsafe_fix_of_the_examples_puts_warp_size_in_a_constant_expression():
    """Every rewrite hipport makes with --unsafe-fixes, over the HP401/HP402
    patterns in constant and run-time places: no warpSize lands in a place
    HP321 would report."""
    source = ("template <int W> struct Tile {};\n" + kernel(
        "constexpr int warps = kLanes / 32;\n"
        "Tile<kLanes % 32> t;\n"
        "static_assert((kLanes & 31) == 0, \"whole warps\");\n"
        "int lane = threadIdx.x & 31;\n"
        "float v = x[0];\nfor (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(~0u, v, o);\n"
        "out[lane] = warps + (int)v;"))
    out = fixed(source)
    assert "threadIdx.x & (warpSize - 1)" in out and "o = warpSize / 2" in out
    again = convert_source(out, Settings(unsafe_fixes=True))
    assert [f.code for f in again.findings if f.code == "HP321"] == []
    assert sorted(f.location.line for f in convert_source(source).findings
                  if f.code == "HP322") == [3, 4, 5]


# What HP321 says, on the compilers: 6.4 takes warpSize as an array bound,
# 7.2 does not; the per-target constant it suggests compiles on both.
WARP_SIZE_BOUND = """#include <hip/hip_runtime.h>
__global__ void k(float* out) {
  __shared__ float s[warpSize];
  s[threadIdx.x % warpSize] = 1.0f;
  out[threadIdx.x] = s[0];
}
"""
PER_TARGET_CONSTANT = """#include <hip/hip_runtime.h>
#if defined(__GFX9__)
constexpr int kWave = 64;
#else
constexpr int kWave = 32;  // RDNA, and the host pass
#endif
__global__ void k(float* out) {
  __shared__ float s[kWave];
  s[threadIdx.x % warpSize] = 1.0f;
  out[threadIdx.x] = s[0] + __builtin_amdgcn_wavefrontsize();
}
"""


@pytest.mark.slow
@pytest.mark.parametrize(("oracle_name", "accepts_warp_size"), [
    pytest.param("rocm-6.4", True, id="rocm-6.4"),
    pytest.param("rocm-7.2", False, id="rocm-7.2"),
])
def test_what_hp321_says_is_what_the_compilers_do(oracle_name: str, accepts_warp_size: bool,
                                                  tmp_path):
    oracle: HipOracle = require_hip_oracle(oracle_name)
    bound = tmp_path / "bound.hip"
    bound.write_text(WARP_SIZE_BOUND)
    assert found(WARP_SIZE_BOUND, "HP321") == [3]
    proc = compile_hip(bound, oracle=oracle)
    assert (proc.returncode == 0) is accepts_warp_size, proc.stderr[-2000:]
    if not accepts_warp_size:
        assert "array size is not a constant expression" in proc.stderr
    way = tmp_path / "way.hip"
    way.write_text(PER_TARGET_CONSTANT)
    assert found(PER_TARGET_CONSTANT, "HP321") == []
    proc = compile_hip(way, oracle=oracle)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # HP322's arithmetic, converted with every unsafe fix, compiles on both
    converted = tmp_path / "arith.hip"
    converted.write_text("constexpr int kLanes = 256;\n" + fixed(
        "#include <cuda_runtime.h>\n" + CONSTANT_ARITHMETIC.replace("int* out", "float* out")
        .replace("rows[threadIdx.x / 32][lane] = x[0];",
                 "rows[threadIdx.x / 32][lane] = x[0];\nout[0] = rows[0][0];")))
    proc = compile_hip(converted, oracle=oracle)
    assert proc.returncode == 0, proc.stderr[-2000:] + converted.read_text()
