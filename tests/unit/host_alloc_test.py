"""Pinned host memory (issue 34 §3): cudaHostAlloc and the driver's
cuMemHostAlloc become hipHostMalloc on every release, with the flags of the
same values (0, 1, 2, 4 in CUDA and in HIP 5.2, 6.4 and 7.2).  HIP 5.x's
hipHostAlloc is deprecated there and hands its flags to the device allocator,
the one hipMalloc calls: `hipHostAlloc(&p, n, 0)` gave device memory."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.toolchain import compile_hip

TARGETS = ((5, 2), (6, 4), (7, 2))


def converted_line(body: str, target: tuple[int, int]) -> str:
    source = f"void f(void* v, float* p, size_t n) {{\n  {body}\n}}\n"
    out = convert_source(source, Settings(rocm_version=target)).output.decode()
    return out.split("\n")[1].strip()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("before, after", [
    pytest.param("cuMemHostAlloc(&v, n, 0);", "hipHostMalloc(&v, n, 0);", id="driver-default"),
    pytest.param("cuMemHostAlloc(&v, n, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);",
                 "hipHostMalloc(&v, n, hipHostMallocMapped | hipHostMallocPortable);",
                 id="driver-flags"),
])
def test_driver_host_alloc_is_host_malloc(before: str, after: str, target: tuple[int, int]):
    assert converted_line(before, target) == after


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("before, after", [
    pytest.param("cudaHostAlloc(&p, n, cudaHostAllocDefault);",
                 "hipHostMalloc(&p, n, hipHostMallocDefault);", id="runtime-default"),
    pytest.param("cudaHostAlloc((void**)&p, n, cudaHostAllocMapped);",
                 "hipHostMalloc((void**)&p, n, hipHostMallocMapped);", id="runtime-mapped"),
    pytest.param("hipHostAlloc(&v, n, 0);", "hipHostAlloc(&v, n, 0);", id="already-hip"),
    pytest.param("mylib::cuMemHostAlloc(&v, n, 0);", "mylib::cuMemHostAlloc(&v, n, 0);",
                 id="user-namespace"),
])
def test_lookalikes(before: str, after: str, target: tuple[int, int]):
    assert converted_line(before, target) == after


PINNED = r"""
#include <cuda.h>
#include <cuda_runtime.h>

int pinned(size_t n)
{
    float* a = nullptr;
    float* b = nullptr;
    void* c = nullptr;
    if (cudaHostAlloc(&a, n * sizeof(float), cudaHostAllocDefault) != cudaSuccess) return 1;
    if (cudaHostAlloc((void**)&b, n, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess)
        return 2;
    if (cuMemHostAlloc(&c, n, CU_MEMHOSTALLOC_DEVICEMAP) != CUDA_SUCCESS) return 3;
    a[0] = 1.0f;
    cudaFreeHost(a);
    cudaFreeHost(b);
    cuMemFreeHost(c);
    return 0;
}
"""


@pytest.mark.slow
def test_pinned_allocations_compile_without_deprecation(tmp_path: Path, hip_oracle):
    # Converted for the oracle's own release; HIP 5.2 warns on hipHostAlloc.
    out = convert_source(PINNED, Settings(rocm_version=hip_oracle.hip_version)).output
    assert b"hipHostAlloc" not in out
    unit = tmp_path / "pinned.hip.cpp"
    unit.write_bytes(out)
    proc = compile_hip(unit, oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "deprecated" not in proc.stderr, proc.stderr[-4000:]
