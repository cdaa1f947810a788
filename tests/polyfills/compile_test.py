"""Every fallback compiles: its use (tests/polyfills/uses/ID.cu) compiles
with nvcc as CUDA, and, converted by hipport (rewrite and compat), through
the generated header with each HIP oracle, for gfx90a and gfx942 (HIP 5.2's
Clang 15 does not know gfx942: gfx90a only there). Without the header the
converted use does not compile: the fallback is what makes it build, and the
oracle has no real API the data does not know of."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hipport.polyfills import DEFAULT_HEADER, Fallback, Status, emulations, render
from tests.ci import missing
from tests.polyfills.helpers import (
    EVERY_EXACTNESS,
    NAMED,
    POLYFILLS,
    USES,
    arch_args,
    compat_unit,
    rewrite_unit,
    target_of,
    use_of,
)
from tests.toolchain import (
    REPO_ROOT,
    HipOracle,
    compile_cuda,
    compile_hip,
    require_hip_oracle,
    require_nvcc,
)

pytestmark = pytest.mark.slow


def test_every_fallback_has_a_use_that_names_all_its_names():
    for fallback in NAMED:
        text = use_of(fallback).read_text()
        missing = [n for n in fallback.cuda_names if n.split("::")[-1] not in text]
        assert missing == [], f"{use_of(fallback).name} does not use {missing}"
    assert sorted(p.stem for p in USES.glob("*.cu")) == sorted(f.id for f in NAMED)


@pytest.mark.parametrize("fallback", NAMED, ids=lambda f: f.id)
def test_the_cuda_use_compiles_with_nvcc(fallback: Fallback):
    require_nvcc()
    proc = compile_cuda(use_of(fallback))
    assert proc.returncode == 0, proc.stderr[-3000:]


def _status(fallback: Fallback, target: str) -> Status:
    (found,) = {e.status for e in emulations(fallback.cuda_names, target, {fallback.exactness})}
    return found


def _compile(unit: Path, oracle: HipOracle, *extra: str) -> str | None:
    """The compiler's complaint: an error, or any diagnostic in the header
    (under -Wall: the header must not add warnings to a user's build)."""
    proc = compile_hip(unit, extra_args=[*arch_args(oracle), "-Wall", *extra], oracle=oracle)
    if proc.returncode != 0 or f"{DEFAULT_HEADER}:" in proc.stderr:
        return proc.stderr[-4000:]
    return None


@pytest.mark.parametrize("context", ["rewrite", "compat"])
@pytest.mark.parametrize("fallback", NAMED, ids=lambda f: f.id)
def test_the_converted_use_compiles_through_the_header(fallback: Fallback, context: str,
                                                       tmp_path: Path, hip_oracle: HipOracle):
    target = target_of(hip_oracle)
    status = _status(fallback, target)
    if status is Status.ROCM_TOO_OLD:
        # Nothing to compile: the fallback is reported (HP706) instead.
        assert fallback.rocm.needs is not None
        return
    make = rewrite_unit if context == "rewrite" else compat_unit
    unit = make(use_of(fallback), tmp_path / "out", list(fallback.cuda_names), target)
    assert _compile(unit, hip_oracle) is None, _compile(unit, hip_oracle)


@pytest.mark.parametrize("fallback", NAMED, ids=lambda f: f.id)
def test_without_the_header_the_converted_use_does_not_compile(fallback: Fallback,
                                                               tmp_path: Path,
                                                               hip_oracle: HipOracle):
    target = target_of(hip_oracle)
    unit = rewrite_unit(use_of(fallback), tmp_path / "out", [], target, polyfill=False)
    error = _compile(unit, hip_oracle, "-fsyntax-only")
    if _status(fallback, target) is Status.NATIVE:
        assert error is None, f"rocm.real says ROCm {target} has it:\n{error}"
    else:
        assert error is not None, f"ROCm {target} compiles it without the fallback: rocm.real?"


ROCM_5_7 = REPO_ROOT / ".toolchain" / "doctor-roots" / "trixie" / "usr" / "include"


@pytest.mark.parametrize("fallback", [f for f in NAMED if f.rocm.needs == "5.7"],
                         ids=lambda f: f.id)
def test_what_needs_rocm_5_7_parses_with_its_headers(fallback: Fallback, tmp_path: Path):
    """No oracle compiles for ROCm 5.7; HIP 5.2's Clang parses its headers
    (Debian 13's, `rocm_version` evidence too), which have the HIP types the
    fallback builds on, and a different __hip_bfloat16 from 6.4's."""
    if not (ROCM_5_7 / "hip" / "hip_version.h").is_file():
        missing(f"the ROCm 5.7 headers are not unpacked under {ROCM_5_7}")
    oracle = require_hip_oracle("hip-5.2")
    assert "HIP_VERSION_MINOR 7" in (ROCM_5_7 / "hip" / "hip_version.h").read_text()
    unit = rewrite_unit(use_of(fallback), tmp_path / "out", list(fallback.cuda_names), "5.7")
    proc = compile_hip(unit, extra_args=["-isystem", str(ROCM_5_7), "-fsyntax-only"],
                       oracle=oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]


# What the GPU code of a fallback does, in the device LLVM IR of its use: the
# cache hints become non-temporal or volatile accesses, __syncwarp fences at
# wavefront scope, __nanosleep sleeps.
DEVICE_IR = {
    "ldcs-ldlu": [r"load float, ptr addrspace\(1\) .*!nontemporal",
                  r"load i64, ptr addrspace\(1\) .*!nontemporal"],
    "stcs": [r"store float .*!nontemporal", r"store i16 .*!nontemporal"],
    "ldcv": [r"load volatile i32", r"load volatile i64"],
    "stwt": [r"store volatile i64", r"store volatile i32 1"],
    "syncwarp": [r'fence syncscope\("wavefront"\) release', r"llvm\.amdgcn\.wave\.barrier",
                 r'fence syncscope\("wavefront"\) acquire'],
    "nanosleep": [r"llvm\.amdgcn\.s\.sleep\(i32 1\)"],
    "trap": [r"llvm\.trap"],
    "block-atomics": [r"atomicrmw (volatile )?add ptr addrspace\(3\)", r"cmpxchg",
                      r"atomicrmw (volatile )?(max|umax)"],
    # A compare-and-swap loop at system scope: no syncscope (LLVM 19+) or
    # "one-as" (HIP 5.2's LLVM 15); the device scope would be "agent[-one-as]".
    "system-atomics": [r'cmpxchg [^\n]*, i32 \S+ (syncscope\("one-as"\) )?monotonic monotonic'],
}


@pytest.mark.parametrize("fallback_id, patterns", DEVICE_IR.items(), ids=list(DEVICE_IR))
def test_the_device_code_does_what_the_fallback_says(fallback_id: str, patterns: list[str],
                                                     tmp_path: Path, hip_oracle: HipOracle):
    fallback = next(f for f in NAMED if f.id == fallback_id)
    unit = rewrite_unit(use_of(fallback), tmp_path / "out", list(fallback.cuda_names),
                        target_of(hip_oracle))
    ir = tmp_path / "device.ll"
    proc = compile_hip(unit, extra_args=["--cuda-device-only", "-S", "-emit-llvm", "-O2"],
                       oracle=hip_oracle, output=ir)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = ir.read_text()
    assert [p for p in patterns if not re.search(p, text)] == []


def _whole_header(tmp_path: Path, target: str) -> Path:
    (tmp_path / DEFAULT_HEADER).write_bytes(
        render(list(POLYFILLS.by_name), target, EVERY_EXACTNESS))
    return tmp_path / DEFAULT_HEADER


def test_every_fallback_together_compiles(tmp_path: Path, hip_oracle: HipOracle):
    """No two fallbacks clash: the header with all of them, in one unit."""
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "all.cpp"
    unit.write_text(f'#include "{DEFAULT_HEADER}"\n'
                    "__global__ void k(unsigned* out) { out[0] = __reduce_add_sync(~0u, 1u); }\n")
    assert _compile(unit, hip_oracle) is None, _compile(unit, hip_oracle)


def test_a_c_file_gets_none_of_them(tmp_path: Path, hip_oracle: HipOracle):
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "plain.c"
    unit.write_text(f'#include "{DEFAULT_HEADER}"\nint main(void) {{ return 0; }}\n')
    proc = compile_hip(unit, oracle=hip_oracle, language="c")
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_rocms_own_warp_sync_builtins_take_over_when_enabled(tmp_path: Path,
                                                             hip_oracle: HipOracle):
    """With HIP_ENABLE_WARP_SYNC_BUILTINS, ROCm 6.2+ declares __match_any_sync
    (64-bit masks): the fallback steps aside there, and only there."""
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "builtins.cpp"
    unit.write_text("#define HIP_ENABLE_WARP_SYNC_BUILTINS\n"
                    f'#include "{DEFAULT_HEADER}"\n'
                    "__global__ void k(unsigned long long* out, int v) {\n"
                    "  out[0] = __match_any_sync(~0ull, v);\n}\n")
    assert _compile(unit, hip_oracle) is None, _compile(unit, hip_oracle)
    preprocessed = compile_hip(unit, extra_args=["-E", "--cuda-device-only"], oracle=hip_oracle,
                               output=tmp_path / "builtins.i")
    assert preprocessed.returncode == 0, preprocessed.stderr[-2000:]
    ours = "unsigned __match_any_sync(Mask mask, T value)"
    assert (ours in (tmp_path / "builtins.i").read_text()) == (hip_oracle.hip_version < (6, 2))
