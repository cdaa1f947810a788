"""Kernels taking large parameter blocks by value (issue 32, class 5).

CUDA 12.1+ takes up to 32,764 bytes of kernel parameters (nvcc 13:
"Formal parameter space overflowed (32776 bytes required, max 32764 bytes
allowed)"), 4,096 before.  Measured on ROCm 6.4 and 7.2 (gfx90a): a kernel
taking a 4, 8, 16, 32 KB (and 1 MB) struct by value compiles and links, the
triple-chevron launch and hipLaunchKernelGGL alike, and the code object's
metadata gives the whole block as its kernarg segment (`.kernarg_segment_size:
32776` for 32 KB and a pointer).  HIP has no compile-time limit below CUDA's,
so such a kernel gets no blocker: these tests hold the conversion to that,
and would tell the day a ROCm release refuses it."""
from __future__ import annotations

import re
import subprocess

import pytest

from hipport.api import convert_source
from hipport.findings import Severity
from hipport.settings import Settings
from tests.toolchain import compile_hip, require_hip_oracle

# 8,187 floats and an int, then the output pointer: 32,760 bytes of
# parameters, within CUDA's 32,764 (nvcc 13 compiles it).
BIG = """\
constexpr int kCount = 8187;
struct Params { float weights[kCount]; int n; };
__global__ void apply(Params p, float* out) {
  out[threadIdx.x] = p.weights[threadIdx.x] * p.n;
}
void run(const Params& p, float* out) {
  apply<<<1, 256>>>(p, out);
  cudaDeviceSynchronize();
}
"""
KERNARG_BYTES = (8187 + 1) * 4 + 8


def test_a_kernel_taking_32_kb_by_value_converts_with_no_blocker():
    result = convert_source(BIG, Settings(rocm_version=(6, 4)))
    assert b"__global__ void apply(Params p, float* out)" in result.output
    assert b"hipDeviceSynchronize()" in result.output
    assert not [f for f in result.findings if f.finding.severity is Severity.ERROR]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rocm-6.4", "rocm-7.2"])
def test_rocm_takes_the_largest_parameter_block_cuda_does(tmp_path, name):
    oracle = require_hip_oracle(name)
    source = tmp_path / "big.hip"
    source.write_text(convert_source(BIG, Settings(rocm_version=(6, 4))).output.decode()
                      + "int main() { static Params p{}; run(p, nullptr); "
                      "hipLaunchKernelGGL(apply, dim3(1), dim3(256), 0, 0, p, nullptr); }\n")
    proc = compile_hip(source, oracle=oracle)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # The device code's metadata: the kernarg segment holds the whole block.
    assembly = tmp_path / "big.s"
    done = subprocess.run(
        oracle.command("hipcc", "--offload-arch=gfx90a", "--cuda-device-only", "-S",
                       str(source), "-o", str(assembly)),
        env=oracle.environ(), capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = re.findall(r"\.kernarg_segment_size:\s*(\d+)", assembly.read_text())
    assert sizes and int(sizes[0]) >= KERNARG_BYTES, sizes
