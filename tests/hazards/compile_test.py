"""Code fixed with every hazard fix (unsafe ones included) still compiles
with each HIP compiler for an AMD GPU."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.edits import Applicability
from hipport.settings import Settings
from tests.toolchain import compile_hip

pytestmark = pytest.mark.slow

FIXABLE = r"""
#include <cuda_runtime.h>
#include <cstdio>

__global__ void __launch_bounds__(256, 2) warp_stats(const float* x, int* counts, float* sums)
{
    int lane = threadIdx.x % 32;
    int lane2 = threadIdx.x & 31;
    int warp = threadIdx.x / 32;
    int warp2 = threadIdx.x >> 5;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    for (int i = 1; i < 32; i *= 2)
        v += __shfl_up_sync(0xffffffff, v, i);
    unsigned votes = __ballot_sync(0xffffffff, v > 0.0f);
    unsigned below = votes & ((1u << lane) - 1);
    if (lane == 31)
        counts[warp] = __popc(votes) + __ffs(below) + lane2 + warp2;
    if (lane == 0)
        sums[warp] = v;
}

size_t shared_per_sm(int device)
{
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    return prop.sharedMemPerMultiprocessor;
}
"""


def test_every_fix_is_applied_and_the_result_compiles(tmp_path: Path, hip_oracle):
    result = convert_source(FIXABLE, Settings(unsafe_fixes=True))
    hazards = [f for f in result.findings if f.code[2] in "45"]
    fixable = [f for f in hazards if f.finding.fix is not None
               and f.finding.fix.applicability >= Applicability.UNSAFE]
    assert {f.code for f in fixable} == {"HP401", "HP402", "HP404", "HP405", "HP503", "HP504"}
    assert all(f.applied for f in fixable), [f.finding.message for f in fixable if not f.applied]
    unit = tmp_path / "fixed.hip.cpp"
    unit.write_bytes(result.output)
    proc = compile_hip(unit, oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-4000:]
