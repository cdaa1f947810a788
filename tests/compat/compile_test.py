"""Every example and golden case, compat-converted, compiles with each HIP
compiler for gfx90a; with nvcc, its preprocessed translation unit is the
original's apart from the added lines (the include and the #if around the
CUDA includes shift __LINE__, nothing else)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.compat.helpers import compat_tree
from tests.toolchain import REPO_ROOT, compile_hip, cuda_include_args, require_nvcc

EXAMPLES = sorted(p for p in (REPO_ROOT / "examples").iterdir()
                  if p.is_dir() and any(p.glob("*.cu")))
CASES = REPO_ROOT / "tests" / "cases"
# Golden inputs that are complete CUDA translation units (not fragments kept
# for one rule, and not cases for one ROCm release).
CASE_INPUTS = sorted(p for p in CASES.rglob("*.cu") if not p.name.endswith(".hip.cu")
                     and "hipport-flags" not in p.read_text()[:200])
# Cases whose HIP form needs a source edit no macro can make (`h2 = {a, b}`
# must name the type): compat leaves the code and reports the finding.
# A `case` label of an enumerator HIP lacks (or folds into another label's) must go.
# cuDNN calls whose arguments MIOpen takes otherwise by layout (NCHW/NHWC) or
# order have no macro of their rule's shape: compat leaves each with HP906.
SOURCE_EDIT_ONLY = {"device/half2_assign.cu": "HP307", "libraries/status_strings.cu": "HP512",
                    "libraries/cudnn_layers.cu": "HP906",
                    "libraries/sparse_triangular.cu": "HP906"}
# Cases whose compat form changes the NVIDIA text, not its meaning: nvcc
# reads `<< <` as `<<<` (the converted file is compiled with nvcc instead).
NVIDIA_TEXT_CHANGED = {"launches/spaced_chevrons.cu": "HP312"}
# Cases that are no whole CUDA translation unit (they call what another file
# would define): named here, so that any other case that nvcc rejects fails.
FRAGMENTS = frozenset({"preprocessor/versions.cu"})
# Cases whose CUDA headers the toolchain does not install (nvcc ships no
# nvrtc.h; scripts/setup-toolchain.sh fetches only the math libraries' wheels).
HEADERS_NOT_INSTALLED = {"libraries/nvrtc_program.cu": "nvrtc.h",
                         "libraries/cudnn_layers.cu": "cudnn.h",
                         "libraries/sparse_triangular.cu": "cusparse.h"}
CASE_UNITS = [p for p in CASE_INPUTS if str(p.relative_to(CASES)) not in FRAGMENTS
              and str(p.relative_to(CASES)) not in HEADERS_NOT_INSTALLED]


def _converted(src: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    results = compat_tree(src, out)
    assert not [r for r in results if r.outcome.value == "failed"], results
    return out


@pytest.mark.parametrize("program", EXAMPLES, ids=lambda p: p.name)
def test_compat_example_compiles_with_hipcc(program: Path, tmp_path: Path, hip_oracle):
    out = _converted(program, tmp_path)
    assert (out / "hip_compat.h").is_file()
    for unit in sorted(out.rglob("*.cu")):
        proc = compile_hip(unit, oracle=hip_oracle)
        assert proc.returncode == 0, f"{unit.name}:\n{proc.stderr[-4000:]}"


def _case_tree(case: Path, tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir(parents=True)
    shutil.copy(case, src / case.name)
    for header in case.parent.glob("*.h"):
        shutil.copy(header, src / header.name)
    return src


def _compiles_as_cuda(path: Path) -> bool:
    nvcc = require_nvcc()
    proc = subprocess.run([nvcc, "-arch=sm_80", "-std=c++17", *cuda_include_args(), "-c",
                           "-x", "cu", str(path), "-o", "/dev/null"],
                          capture_output=True, text=True, check=False)
    return proc.returncode == 0


def test_compat_reports_what_only_a_source_edit_fixes(tmp_path: Path):
    for name, code in SOURCE_EDIT_ONLY.items():
        here = tmp_path / Path(name).stem
        src = _case_tree(CASES / name, here)
        results = compat_tree(src, here / "out")
        assert code in {f.code for r in results for f in r.findings}, name


@pytest.mark.parametrize("case", [c for c in CASE_INPUTS
                                  if str(c.relative_to(CASES)) not in SOURCE_EDIT_ONLY],
                         ids=lambda p: str(p.relative_to(CASES)))
def test_compat_case_compiles_with_hipcc(case: Path, tmp_path: Path, hip_oracle):
    src = _case_tree(case, tmp_path)
    out = _converted(src, tmp_path)
    proc = compile_hip(out / case.name, oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]


def preprocessed(path: Path) -> list[str]:
    """``nvcc -E`` of ``path`` (compiled from its own folder, so __FILE__ is
    its name only), without line markers and blank lines."""
    nvcc = require_nvcc()
    proc = subprocess.run([nvcc, "-E", "-arch=sm_80", "-std=c++17", *cuda_include_args(),
                           "-x", "cu", path.name], cwd=path.parent, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [line for line in proc.stdout.splitlines()
            if line.strip() and not line.startswith("#")]


def _line_shifts(before: str, after: str) -> set[int]:
    """How far the original lines moved; and the converted text without the
    compat lines must be the original, byte for byte."""
    kept: list[str] = []
    shifts, added, open_wrap = {0}, 0, False
    for line in after.splitlines(keepends=True):
        bare = line.strip()
        if bare.startswith('#include "') and bare.endswith('hip_compat.h"'):
            added += 1
        elif bare == "#if !defined(__HIP_PLATFORM_AMD__)":
            added, open_wrap = added + 1, True
        elif bare == "#endif" and open_wrap:
            added, open_wrap = added + 1, False
        else:
            kept.append(line)
        shifts.add(added)
    assert "".join(kept) == before, "compat changed more than the include lines"
    return shifts


def _same_apart_from_lines(a: str, b: str, shifts: set[int]) -> bool:
    parts_a, parts_b = re.split(r"(\d+)", a), re.split(r"(\d+)", b)
    if len(parts_a) != len(parts_b):
        return False
    for i, (x, y) in enumerate(zip(parts_a, parts_b)):
        if x == y:
            continue
        if i % 2 == 0 or int(y) - int(x) not in shifts:
            return False
    return True


def assert_same_nvidia_tu(original: Path, converted: Path) -> None:
    shifts = _line_shifts(original.read_text(), converted.read_text())
    a, b = preprocessed(original), preprocessed(converted)
    assert len(a) == len(b), f"{converted.name}: {len(a)} vs {len(b)} lines"
    different = [(x, y) for x, y in zip(a, b) if x != y
                 and not _same_apart_from_lines(x, y, shifts)]
    assert different == [], different[:5]


@pytest.mark.slow
@pytest.mark.parametrize("program", EXAMPLES, ids=lambda p: p.name)
def test_compat_example_is_the_same_nvidia_translation_unit(program: Path, tmp_path: Path):
    out = _converted(program, tmp_path)
    units = sorted(program.glob("*.cu"))
    assert units
    for unit in units:
        assert_same_nvidia_tu(unit, out / unit.name)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASE_UNITS, ids=lambda p: str(p.relative_to(CASES)))
def test_compat_case_is_the_same_nvidia_translation_unit(case: Path, tmp_path: Path):
    src = _case_tree(case, tmp_path)
    out = _converted(src, tmp_path)
    if str(case.relative_to(CASES)) in NVIDIA_TEXT_CHANGED:
        assert _compiles_as_cuda(out / case.name)
        return
    assert_same_nvidia_tu(src / case.name, out / case.name)


@pytest.mark.slow
def test_the_fragments_are_cases_nvcc_rejects():
    for name in FRAGMENTS:
        assert not _compiles_as_cuda(CASES / name), f"{name} compiles: compare it like the others"


def test_a_changed_line_fails_the_comparison():
    assert not _same_apart_from_lines("f(1, 2)", "f(1, 3)", {0, 3})
    assert _same_apart_from_lines('g("k.cu", 67)', 'g("k.cu", 70)', {0, 3})


WRAPPERS = """\
#include <cuda_runtime.h>
__device__ float table_[4];
__global__ void k(float *out) {
    float v = out[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1);
    unsigned long long lanes = __activemask();
    out[threadIdx.x] = v + (float)(lanes & 1);
}
int host(cudaStream_t s) {
    float x[4] = {0};
    void *p = 0;
    size_t n = 0;
    cudaMemcpyToSymbol(table_, x, sizeof x);
    cudaMemcpyToSymbolAsync(table_, x, sizeof x, 0, cudaMemcpyHostToDevice, s);
    cudaMemcpyFromSymbol(x, table_, sizeof x);
    cudaGetSymbolAddress(&p, table_);
    cudaGetSymbolSize(&n, table_);
#if !defined(__HIP_PLATFORM_AMD__) || HIP_VERSION >= 50700000
    int device = 0;
    cudaStreamGetDevice(s, &device);  // a HIP name from ROCm 5.7 on: under HIP_VERSION
#endif
    return (int)n + (p != 0);
}
__global__ void g2(float *x) { x[0] = 1; }
int host2() {
    float *fp = 0, host_[4];
    size_t pitch = 0;
    cudaHostGetDevicePointer(&fp, host_, 0);  // casts: HIP has no T** overloads
    cudaMallocPitch(&fp, &pitch, 16, 4);
    cudaFuncSetAttribute(g2, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, g2);
    cudaEvent_t e;
    cudaEventCreate(&e);  // the overloads, picked by the number of arguments
    cudaEventCreate(&e, cudaEventDisableTiming);
    return (int)pitch;
}
"""


def test_function_like_macros_and_versioned_names_compile(tmp_path: Path, hip_oracle):
    src = tmp_path / "src"
    src.mkdir()
    (src / "wrappers.cu").write_text(WRAPPERS)
    out = _converted(src, tmp_path)
    header = (out / "hip_compat.h").read_text()
    assert "#define cudaGetSymbolAddress(first, symbol, ...)" in header
    assert "#if HIP_VERSION >= 50700000\n#define cudaStreamGetDevice" in header
    assert "#define cudaHostGetDevicePointer(a0, ...) hipHostGetDevicePointer((void**)(a0), " \
        "##__VA_ARGS__)" in header
    assert "#define HIPPORT_ARG6_(a1, a2, a3, a4, a5, a6, ...) a6" in header
    proc = compile_hip(out / "wrappers.cu", oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.slow
def test_function_like_macros_keep_the_nvidia_translation_unit(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "wrappers.cu").write_text(WRAPPERS)
    out = _converted(src, tmp_path)
    assert_same_nvidia_tu(src / "wrappers.cu", out / "wrappers.cu")


C_SAMPLE = """\
#include <stdio.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

int main(void) {
    cusparseHandle_t handle;
    void *buffer = NULL;
    if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
    cudaMalloc(&buffer, 64);
    cudaFree(buffer);
    cusparseDestroy(handle);
    printf("ok\\n");
    return 0;
}
"""
# C++-only HIP headers the same tree pulls into its one header: hipRAND's
# (rocrand.h needs __half), hipfftXt.h (<cstddef>), rocThrust.
CXX_SAMPLE = """\
#include <cufftXt.h>
#include <curand.h>
#include <thrust/device_vector.h>

void fill(float *out, size_t n) {
    curandGenerator_t gen;
    curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
    curandGenerateUniform(gen, out, n);
    thrust::device_vector<float> v(out, out + n);
    cufftHandle plan;
    cufftCreate(&plan);
    cufftXtSetGPUs(plan, 1, nullptr);
}
"""


def test_a_c_file_compiles_beside_cxx_only_libraries(tmp_path: Path, hip_oracle):
    # CUDALibrarySamples' cuSPARSE .c samples share a header with C++ ones.
    src = tmp_path / "src"
    src.mkdir()
    (src / "sparse.c").write_text(C_SAMPLE)
    (src / "fill.cu").write_text(CXX_SAMPLE)
    out = _converted(src, tmp_path)
    header = (out / "hip_compat.h").read_text()
    assert "#if defined(__cplusplus) && __has_include(<hiprand/hiprand.h>)" in header
    assert "#if __has_include(<hipsparse/hipsparse.h>)" in header
    proc = compile_hip(out / "sparse.c", oracle=hip_oracle, language="c")
    assert proc.returncode == 0, proc.stderr[-3000:]


LAUNCH_BOUNDS = """\
#include <cuda_runtime.h>
__global__ void __launch_bounds__(256, 2) two(float *p) { p[threadIdx.x] = 0; }
__global__ void __launch_bounds__(128) one(float *p) { p[threadIdx.x] = 0; }
__global__ void __launch_bounds__(64, 1, 2) three(float *p) { p[threadIdx.x] = 0; }
"""


def test_launch_bounds_minimum_blocks_become_waves(tmp_path: Path, hip_oracle):
    # HIP's own macro passes 2 on as 2 waves per SIMD and fails on a third
    # argument; 2 blocks of 512 threads are 1024 / (4 SIMDs * 64 lanes) = 4.
    src = tmp_path / "src"
    src.mkdir()
    (src / "bounds.cu").write_text(LAUNCH_BOUNDS.replace("(256, 2)", "(512, 2)"))
    out = _converted(src, tmp_path)
    assert "#undef __launch_bounds__" in (out / "hip_compat.h").read_text()
    ir = tmp_path / "bounds.ll"
    proc = compile_hip(out / "bounds.cu", oracle=hip_oracle, output=ir,
                       extra_args=["--cuda-device-only", "-emit-llvm", "-S"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    # ROCm 6.4 spells the waves "4,8" (the minimum, and the GPU's maximum).
    attributes = set(re.findall(r'"amdgpu-(waves-per-eu|flat-work-group-size)"="(\d+(?:,\d+)?)',
                                ir.read_text()))
    waves = {value.split(",")[0] for name, value in attributes if name == "waves-per-eu"}
    groups = {value for name, value in attributes if name == "flat-work-group-size"}
    assert waves == {"4", "1"}, attributes  # HIP's own: {"2", ...}; 64 threads: 1
    assert groups == {"1,512", "1,128", "1,64"}, attributes


def test_no_launch_bounds_macro_without_minimum_blocks(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "bounds.cu").write_text("#include <cuda_runtime.h>\n"
                                   "__global__ void __launch_bounds__(128) one(float *p) {}\n")
    out = _converted(src, tmp_path)
    assert "__launch_bounds__" not in (out / "hip_compat.h").read_text()
