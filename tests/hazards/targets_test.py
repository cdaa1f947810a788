"""Hazard messages speak of the target release (`--rocm-version`), as its
headers have it (issue 26, class 7): they said "ROCm 5.x" or "before ROCm
6.2" whatever the target, and reported fields ROCm 6.4 has as missing."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.rules.hazards.device_properties import FROM_64
from hipport.settings import Settings
from tests.toolchain import compile_hip, require_hip_oracle


def messages(source: str, code: str, target: tuple[int, ...] | None) -> list[str]:
    result = convert_source(source, Settings(rocm_version=target))
    return [f.finding.message for f in result.findings if f.code == code]


CG = "namespace cg = cooperative_groups;\n"


@pytest.mark.parametrize("target, text", [
    ((6, 4), "ROCm 6.4, the target"), ((5, 2), "ROCm 5.2, the target"),
    (None, "ROCm 5.2, 5.7, 6.4 and 7.2"),
])
def test_a_cooperative_groups_gap_names_the_target(target, text):
    source = CG + "__device__ int f(T t, int v) { return cg::inclusive_scan(t, v); }"
    (message,) = messages(source, "HP507", target)
    assert text in message and "5.x" not in message


def test_binary_partition_is_in_64_behind_the_warp_sync_macro():
    source = CG + "__device__ void f(T t, bool p) { auto g = cg::binary_partition(t, p); }"
    (old,) = messages(source, "HP507", (5, 7))
    assert "not in HIP's cooperative groups (ROCm 5.7, the target)" in old
    (new,) = messages(source, "HP507", (6, 4))
    assert "only with HIP_ENABLE_WARP_SYNC_BUILTINS defined" in new


@pytest.mark.parametrize("field, on_52, on_64", [
    ("regsPerMultiprocessor", True, False),   # hipDeviceProp_t has it from 6.x on
    ("uuid", True, False),
    ("mpsEnabled", True, True),               # not in 6.4's either
])
def test_a_device_property_field_is_missing_only_where_the_target_lacks_it(field, on_52, on_64):
    source = f"void f() {{ cudaDeviceProp p; int r = p.{field}; }}"
    for target, expected in (((5, 2), on_52), ((6, 4), on_64)):
        found = messages(source, "HP503", target)
        assert bool(found) is expected, (target, found)
        if found:
            assert f"ROCm {target[0]}.{target[1]}, the target" in found[0]


@pytest.mark.parametrize("target", [(5, 2), (6, 4)])
def test_syncwarp_names_the_target(target):
    (message,) = messages("__global__ void k() { __syncwarp(); }", "HP407", target)
    assert f"no __syncwarp in ROCm {target[0]}.{target[1]}" in message and "6.2" not in message


def test_syncwarp_is_declared_by_rocm_7():
    # amd_warp_sync_functions.h of 7.2 defines __syncwarp(): "there is no
    # __syncwarp in ROCm 7.2" was false once the default target became 7.2.
    (message,) = messages("__global__ void k() { __syncwarp(); }", "HP407", (7, 2))
    assert "ROCm 7.2, the target, declares it" in message and "64-bit mask" in message
    (none,) = messages("__global__ void k() { __syncwarp(); }", "HP407", None)
    assert "no __syncwarp in ROCm 5.2, 5.7 and 6.4" in none


def syncwarp_codes(target: tuple[int, int], polyfills: tuple[str, ...]) -> list[str]:
    source = "__global__ void k() { __syncwarp(); }"
    result = convert_source(source, Settings(rocm_version=target, polyfills=polyfills))
    return [f.code for f in result.findings if f.finding.cuda_name == "__syncwarp"]


@pytest.mark.parametrize("target", [(5, 2), (6, 4), (7, 2)])
def test_syncwarp_with_the_polyfills_is_the_headers_on_every_target(target):
    # On 7.2 too: the header adds the overloads for CUDA's 32-bit masks.
    assert syncwarp_codes(target, ("exact", "hint-dropped")) == ["HP701"]


def test_syncwarp_without_the_polyfills_is_unsupported_only_before_7_2():
    # It was HP901 ("no HIP equivalent") for 7.2 as well, which declares it.
    assert syncwarp_codes((7, 2), ()) == []
    assert syncwarp_codes((6, 4), ()) == ["HP905"]
    assert syncwarp_codes((5, 2), ()) == ["HP905"]


@pytest.mark.parametrize("target, text", [
    ((5, 2), "ROCm 5.2, the target, does not declare this flag"),
    ((6, 4), "ROCm 6.4, the target, declares this flag, but"),
    (None, "missing before ROCm 5.7"),
])
def test_a_graph_flag_names_the_target(target, text):
    (message,) = messages("void f(cudaGraphExec_t* e, cudaGraph_t g) {\n"
                          "  cudaGraphInstantiateWithFlags(e, g, "
                          "cudaGraphInstantiateFlagUpload);\n}\n", "HP508", target)
    assert text in message


@pytest.mark.slow
def test_the_fields_64_has_are_those_its_compiler_takes(tmp_path, hip_oracle):
    fields = sorted(FROM_64)
    path = tmp_path / "props.hip"
    path.write_text("#include <hip/hip_runtime.h>\nvoid f(hipDeviceProp_t& p, long* out) {\n"
                    + "".join(f"    out[{i}] = (long)sizeof(p.{name});\n"
                              for i, name in enumerate(fields)) + "}\n")
    proc = compile_hip(path, extra_args=["-ferror-limit=0"], oracle=hip_oracle)
    if hip_oracle.hip_version >= (6, 4):  # 6.4 and newer (7.2) have them
        assert proc.returncode == 0, proc.stderr[-2000:]
    else:
        assert all(f"no member named '{name}'" in proc.stderr for name in fields)


def narrow_mask(mask: str, target: tuple[int, int], polyfills: tuple[str, ...] = ()) -> bool:
    """HP407 says `__syncwarp(mask)` does not compile (and how to widen it)."""
    source = ("#define FULL 0xffffffffu\n"
              f"__global__ void k(unsigned long long m) {{ __syncwarp({mask}); }}")
    result = convert_source(source, Settings(rocm_version=target, polyfills=polyfills))
    (message,) = [f.finding.message for f in result.findings if f.code == "HP407"]
    return "does not compile" in message and "0xffffffffffffffffull" in message


@pytest.mark.parametrize("mask", ["0xffffffff", "~0u", "-1", "(0xffffu)", "FULL", "0x0000ffff"])
def test_a_32_bit_syncwarp_mask_without_the_polyfills_does_not_compile_on_7_2(mask):
    # 7.2's own __syncwarp(MaskT) static_asserts sizeof(MaskT) == 8; with
    # --polyfills none nothing said so (HP407 spoke of 32-lane warps only).
    assert narrow_mask(mask, (7, 2))


@pytest.mark.parametrize("mask", ["0xffffffffffffffffull", "0xffffffffUL", "m", "__activemask()",
                                  "0x1ffffffff", ""])
def test_a_syncwarp_mask_that_may_be_64_bits_is_not_said_to_fail(mask):
    assert not narrow_mask(mask, (7, 2))


def test_a_32_bit_syncwarp_mask_compiles_with_the_polyfills_or_fails_otherwise_before_7_2():
    assert not narrow_mask("0xffffffff", (7, 2), ("exact", "hint-dropped"))
    assert not narrow_mask("0xffffffff", (6, 4))   # no __syncwarp at all: the usual message


@pytest.mark.slow
def test_rocm_72_refuses_a_32_bit_syncwarp_mask_and_takes_the_widened_ones(tmp_path):
    oracle = require_hip_oracle("rocm-7.2")
    for mask, compiles in (("0xffffffff", False), ("~0u", False),
                           ("0xffffffffffffffffull", True), ("__ballot(1)", True)):
        path = tmp_path / "k.hip"
        path.write_text("#include <hip/hip_runtime.h>\n"
                        "__global__ void k(int* o) {\n"
                        f"  o[threadIdx.x] = 1;\n  __syncwarp({mask});\n}}\n")
        proc = compile_hip(path, oracle=oracle)
        assert (proc.returncode == 0) is compiles, (mask, proc.stderr[-1500:])
        if not compiles:
            assert "The mask must be a 64-bit integer" in proc.stderr
