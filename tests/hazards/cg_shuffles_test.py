"""HP417 (issue 32): a cooperative-groups shuffle of a class-type value
(`tile.shfl_xor(uint4, ...)`), which CUDA moves word by word and HIP's
static_assert refuses ("Neither an integer or float type.", both oracles)."""
from __future__ import annotations

import pytest

from tests.hazards.helpers import compile_converted, found
from tests.toolchain import HipOracle

HEAD = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
        "struct Pair { double a; double b; };\n")


def kernel(body: str) -> str:
    return HEAD + ("__global__ void k(uint4* u, double2* d, Pair* p, float* f, int* n) {\n"
                   "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
                   f"{body}\n}}\n")


@pytest.mark.parametrize("body", [
    pytest.param("  uint4 v = u[0];\n  u[1] = tile.shfl_xor(v, 1);", id="uint4-variable"),
    pytest.param("  d[1] = tile.shfl_down(d[0], 2);", id="double2-element"),
    pytest.param("  const Pair q = p[0];\n  p[1] = tile.shfl_up(q, 1);", id="user-struct"),
    pytest.param("  p[1] = tile.shfl(p[0], 0);", id="struct-element"),
    pytest.param("  u[1] = tile.shfl_xor(make_uint4(1, 2, 3, 4), 1);", id="make-vector"),
])
def test_a_shuffle_of_a_class_type_is_reported(body: str):
    assert len(found(kernel(body), "HP417")) == 1


@pytest.mark.parametrize("body", [
    pytest.param("  float x = f[0];\n  f[1] = tile.shfl_xor(x, 1);", id="float"),
    pytest.param("  f[1] = tile.shfl_down(f[0], 1) + tile.shfl(3.0f, 0);", id="float-element"),
    pytest.param("  unsigned long long w = 1;\n  n[0] = (int)tile.shfl_up(w, 1);", id="integer"),
    pytest.param("  uint4 v = u[0];\n  u[1].x = tile.shfl_xor(v.x, 1);", id="a-member"),
    pytest.param("  auto v = u[0];\n  u[1] = tile.shfl_xor(v, 1);", id="type-not-known"),
    pytest.param("  uint4* v = u;\n  (void)v;\n  n[0] = tile.shfl_xor(n[0], 1);",
                 id="pointer-name-unused"),
])
def test_shuffles_of_numbers_and_unknown_types_are_not(body: str):
    assert found(kernel(body), "HP417") == []


def test_without_cooperative_groups_nothing_is_reported():
    source = "struct T { uint4 shfl_xor(uint4 v, int m); };\n" \
        "__global__ void k(T t, uint4* u) { uint4 v = u[0]; u[1] = t.shfl_xor(v, 1); }\n"
    assert found(source, "HP417") == []


@pytest.mark.slow
@pytest.mark.parametrize("body, breaks", [
    pytest.param("  uint4 v = u[threadIdx.x];\n  u[threadIdx.x] = tile.shfl_xor(v, 1);", True,
                 id="uint4"),
    pytest.param("  d[threadIdx.x] = tile.shfl_down(d[threadIdx.x], 2);", True, id="double2"),
    pytest.param("  p[threadIdx.x] = tile.shfl(p[threadIdx.x], 0);", True, id="struct"),
    pytest.param("  uint4 v = u[threadIdx.x];\n  v.x = tile.shfl_xor(v.x, 1);\n"
                 "  v.y = tile.shfl_xor(v.y, 1);\n  u[threadIdx.x] = v;", False,
                 id="members-one-by-one"),
])
def test_hp417_says_what_the_compiler_says(body: str, breaks: bool, tmp_path,
                                           hip_oracle: HipOracle):
    reported, proc = compile_converted(kernel(body), "HP417", tmp_path, hip_oracle)
    assert (proc.returncode != 0) == breaks, proc.stderr[-2000:]
    assert reported == breaks
    if breaks:  # HIP 5.2 and ROCm 6.4 static_assert; 7.2 has no overload for it
        assert "Neither an integer or float type" in proc.stderr or \
            "no matching function for call to '__shfl" in proc.stderr
