"""Every fallback compiles: its use (tests/polyfills/uses/ID.cu) compiles
with nvcc as CUDA, and, converted by hipport (rewrite and compat), through
the generated header with each HIP oracle, for gfx90a and gfx942 (HIP 5.2's
Clang 15 does not know gfx942: gfx90a only there). Without the header the
converted use does not compile: the fallback is what makes it build, and the
oracle has no real API the data does not know of."""
from __future__ import annotations

import re
import subprocess
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
    cuda_compile_command,
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


def _compile(unit: Path, oracle: HipOracle, *extra: str, gpus: bool = True) -> str | None:
    """The compiler's complaint: an error, or any diagnostic in the header
    (under -Wall: the header must not add warnings to a user's build); for
    every GPU the oracle knows, or with ``gpus=False`` for gfx90a only."""
    archs = arch_args(oracle) if gpus else []
    proc = compile_hip(unit, extra_args=[*archs, "-Wall", *extra], oracle=oracle)
    if proc.returncode != 0 or f"{DEFAULT_HEADER}:" in proc.stderr:
        return proc.stderr[-4000:]
    return None


# The macros ROCm's warp-sync builtins are declared by: 6.2-6.4 declare them
# only with HIP_ENABLE_WARP_SYNC_BUILTINS, 7.2 unless HIP_DISABLE_...
WARP_SYNC_MACROS = ("HIP_DISABLE_WARP_SYNC_BUILTINS", "HIP_ENABLE_WARP_SYNC_BUILTINS")


def _macros_read(fallback: Fallback) -> tuple[str | None, ...]:
    """No macro, and each macro the fallback's guard reads (its ``when``)."""
    when = fallback.rocm.when or ""
    return (None, *(m for m in WARP_SYNC_MACROS if m in when))


USES_WITH_MACROS = [pytest.param(f, m, id=f.id if m is None else f"{f.id}-{m}")
                    for f in NAMED for m in _macros_read(f)]


def _defines(macro: str | None) -> list[str]:
    return [] if macro is None else [f"-D{macro}"]


@pytest.mark.parametrize("fallback, macro", USES_WITH_MACROS)
def test_the_converted_use_compiles_through_the_header(fallback: Fallback, macro: str | None,
                                                       tmp_path: Path, hip_oracle: HipOracle):
    """Also with each warp-sync macro a fallback's guard reads defined: the
    same header serves a build that defines it; for every GPU the oracle knows."""
    error = _converted_use_error(fallback, macro, "rewrite", tmp_path, hip_oracle)
    assert error is None, error


@pytest.mark.parametrize("fallback, macro", USES_WITH_MACROS)
def test_the_compat_use_compiles_through_the_header(fallback: Fallback, macro: str | None,
                                                    tmp_path: Path):
    """The compat strategy's header holds the same fallback code (the same
    sections, in hip_compat.h) reached through macros that no GPU and no
    release changes: it compiles on the default target's oracle, ROCm 7.2,
    for gfx90a; the rewrite context above compiles that code on every oracle
    and GPU (issue 33 §8: 2.4 CPU s a use and oracle)."""
    oracle = require_hip_oracle(DEFAULT_ORACLE)
    error = _converted_use_error(fallback, macro, "compat", tmp_path, oracle)
    assert error is None, error


DEFAULT_ORACLE = "rocm-7.2"


def _converted_use_error(fallback: Fallback, macro: str | None, context: str, tmp_path: Path,
                         oracle: HipOracle) -> str | None:
    """The compiler's complaint about the use converted in ``context``
    (``rewrite`` or ``compat``) for the oracle's release, or None."""
    target = target_of(oracle)
    status = _status(fallback, target)
    if status is Status.ROCM_TOO_OLD:
        # Nothing to compile: the fallback is reported (HP706) instead.
        assert fallback.rocm.needs is not None
        return None
    if status is Status.NATIVE:
        # Nothing to emulate: the names convert to ROCm's own, and the use
        # compiles without the header (the test below).
        assert fallback.rocm.real is not None
        return None
    make = rewrite_unit if context == "rewrite" else compat_unit
    unit = make(use_of(fallback), tmp_path / "out", list(fallback.cuda_names), target)
    return _compile(unit, oracle, *_defines(macro), gpus=context == "rewrite")


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


@pytest.mark.parametrize("macro", (None, *WARP_SYNC_MACROS), ids=lambda m: m or "no-macro")
def test_every_fallback_together_compiles(macro: str | None, tmp_path: Path,
                                          hip_oracle: HipOracle):
    """No two fallbacks clash: the header with all of them, in one unit."""
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "all.cpp"
    unit.write_text(f'#include "{DEFAULT_HEADER}"\n'
                    "__global__ void k(unsigned* out) { out[0] = __reduce_add_sync(~0u, 1u); }\n")
    error = _compile(unit, hip_oracle, *_defines(macro))
    assert error is None, error


def test_a_c_file_gets_none_of_them(tmp_path: Path, hip_oracle: HipOracle):
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "plain.c"
    unit.write_text(f'#include "{DEFAULT_HEADER}"\nint main(void) {{ return 0; }}\n')
    proc = compile_hip(unit, oracle=hip_oracle, language="c")
    assert proc.returncode == 0, proc.stderr[-3000:]


# For each warp fallback that stays beside ROCm's own: how ROCm's declaration
# reads once preprocessed (amd_warp_sync_functions.h of 6.4 and 7.2), and
# the fallback's form for any mask type, which must be there exactly where
# ROCm's is not (its 32-bit-mask overloads are always there).
WARP_SYNC_FORMS = {
    "match-sync": (r"unsigned long long __match_any_sync\(MaskT mask, T value\)",
                   "unsigned __match_any_sync(Mask mask, T value)"),
    "reduce-sync": (r"int __reduce_add_sync\(MaskT mask, int val\)",
                    "int __reduce_add_sync(Mask mask, int value)"),
    "syncwarp": (r"void __syncwarp\(\) \{", "void __syncwarp(unsigned mask = 0xffffffffu)"),
}
CUDA_MASK_FORMS = ("unsigned __match_any_sync(unsigned mask, T value)",
                   "int __reduce_add_sync(unsigned mask, int value)")


def _declared_by(release: tuple[int, ...], macro: str | None) -> bool:
    """Where the headers declare ROCm's warp-sync builtins, as the
    fallbacks' guards say (checked below against the headers themselves)."""
    if release >= (7, 2):
        return macro != "HIP_DISABLE_WARP_SYNC_BUILTINS"
    return release >= (6, 2) and macro == "HIP_ENABLE_WARP_SYNC_BUILTINS"


@pytest.mark.parametrize("macro", (None, *WARP_SYNC_MACROS), ids=lambda m: m or "no-macro")
def test_rocms_own_warp_sync_builtins_take_over_where_declared(macro: str | None,
                                                               tmp_path: Path,
                                                               hip_oracle: HipOracle):
    """Where the oracle's headers declare ROCm's warp-sync builtins (6.2-6.4
    with HIP_ENABLE_WARP_SYNC_BUILTINS, 7.2 unless HIP_DISABLE_...), a 64-bit
    mask gets ROCm's and the fallbacks keep only their overloads for CUDA's
    32-bit masks; elsewhere the fallbacks are whole.  Read from the
    preprocessed headers, with and without each macro."""
    _whole_header(tmp_path, target_of(hip_oracle))
    unit = tmp_path / "builtins.cpp"
    unit.write_text(f'#include "{DEFAULT_HEADER}"\n'
                    "__global__ void k(unsigned long long* out, int v) {\n"
                    "  __syncwarp();\n  __syncwarp(0xffffffffu);\n  __syncwarp(~0ull);\n"
                    "  out[0] = __match_any_sync(~0ull, v) + __match_any_sync(0xffffffff, v);\n"
                    "  out[1] = __reduce_add_sync(~0ull, v) + __reduce_add_sync(0xffff, v);\n}\n")
    defines = _defines(macro)
    error = _compile(unit, hip_oracle, *defines)
    assert error is None, error
    preprocessed = compile_hip(unit, extra_args=["-E", "--cuda-device-only", *defines],
                               oracle=hip_oracle, output=tmp_path / "builtins.i")
    assert preprocessed.returncode == 0, preprocessed.stderr[-2000:]
    text = (tmp_path / "builtins.i").read_text()
    declared = {fallback_id: re.search(rocms, text) is not None
                for fallback_id, (rocms, _) in WARP_SYNC_FORMS.items()}
    ours = {fallback_id: whole in text for fallback_id, (_, whole) in WARP_SYNC_FORMS.items()}
    assert ours == {fallback_id: not d for fallback_id, d in declared.items()}
    assert [form for form in CUDA_MASK_FORMS if form not in text] == []
    # The headers say what the guards say: 7.2 declares all three unless
    # disabled, 6.2-6.4 only __match_*_sync and only when enabled.
    release = hip_oracle.hip_version
    assert declared["match-sync"] == _declared_by(release, macro)
    assert declared["reduce-sync"] == declared["syncwarp"] == \
        (release >= (7, 2) and _declared_by(release, macro))


NVIDIA_PLATFORM = ["-D__HIP_PLATFORM_NVIDIA__"]


def test_on_hips_nvidia_platform_the_header_includes_what_it_stands_in_for(tmp_path: Path):
    """HIP on NVIDIA: the header holds no fallback, and includes the CUDA
    headers the rewrite dropped (cg::reduce from cooperative_groups/reduce.h).
    HIP 5.2's NVIDIA headers (/usr/include/hip/nvidia_detail) no longer
    compile with CUDA 13 (cudaMemPrefetchAsync and cudaDeviceProp changed),
    so nvcc preprocesses the converted use with them, and compiles it with
    HIP's two headers standing for CUDA's own."""
    nvcc = require_nvcc()
    hip = Path("/usr/include/hip/nvidia_detail/nvidia_hip_runtime.h")
    if not hip.is_file():
        missing(f"HIP's NVIDIA platform headers are not installed ({hip})")
    fallback = next(f for f in NAMED if f.id == "cg-reduce")
    unit = rewrite_unit(use_of(fallback), tmp_path / "out", list(fallback.cuda_names),
                        target_of(require_hip_oracle("hip-5.2")))
    assert b"cooperative_groups/reduce.h" not in unit.read_bytes()
    command = cuda_compile_command(unit, extra_args=NVIDIA_PLATFORM)
    preprocess = [nvcc, *NVIDIA_PLATFORM, "-E", "-x", "cu", str(unit), "-o",
                  str(tmp_path / "nvidia.i")]
    proc = subprocess.run(preprocess, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = (tmp_path / "nvidia.i").read_text()
    assert "nvidia_detail/nvidia_hip_runtime.h" in text
    assert re.search(r'# \d+ "[^"]*/cooperative_groups/reduce\.h"', text)
    assert "hipport_detail" not in text and "__builtin_amdgcn" not in text
    stand_ins = tmp_path / "stand-ins" / "hip"
    stand_ins.mkdir(parents=True)
    (stand_ins / "hip_runtime.h").write_text("#include <cuda_runtime.h>\n")
    (stand_ins / "hip_cooperative_groups.h").write_text("#include <cooperative_groups.h>\n")
    command[1:1] = ["-I", str(stand_ins.parent)]
    proc = subprocess.run([*command, "-o", str(tmp_path / "nvidia.o")], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
