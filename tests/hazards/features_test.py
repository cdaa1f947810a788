"""HP420 and HP501-HP509: inline PTX and features HIP lacks or treats
differently."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.hazards.helpers import fixed, found, kernel

POSITIVE = [
    pytest.param("HP420", kernel('unsigned l;\nasm volatile("mov.u32 %0, %%laneid;" : "=r"(l));'),
                 id="420-asm-volatile"),
    pytest.param("HP420", kernel('int r;\nasm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(1), "r"(2));'),
                 id="420-asm"),
    pytest.param("HP420", "__device__ int f() {\n#if defined(__CUDA_ARCH__)\n  int r;\n"
                 '  asm("mov.u32 %0, 1;" : "=r"(r));\n  return r;\n#else\n  return 1;\n#endif\n}\n',
                 id="420-guarded"),
    # qualifiers a macro hides: the PTX spelling says it is device code
    pytest.param("HP420", "#define DEV __forceinline__ __device__\nDEV unsigned lane() {\n"
                 '  unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }\n',
                 id="420-ptx-under-a-macro-qualifier"),
    pytest.param("HP420", "__host__ __device__ void fence() { asm volatile(\"membar.gl;\"); }",
                 id="420-host-device"),
    # a macro's body is not parsed: the build stops where it is expanded
    pytest.param("HP420", '#define LANE_ID(x) asm volatile("mov.u32 %0, %%laneid;" : "=r"(x))\n'
                 + kernel("unsigned l;\nLANE_ID(l);"), id="420-ptx-macro"),
    pytest.param("HP420", '#define FENCE __asm__ __volatile__("membar.gl;" ::: "memory")\n',
                 id="420-ptx-object-macro"),
    pytest.param("HP501", "texture<float, 1, cudaReadModeElementType> tex;", id="501-texture"),
    pytest.param("HP501", "surface<void, 2> surf;", id="501-surface"),
    pytest.param("HP502", "__global__ void child(int*);\n" + kernel("child<<<1, 64>>>(out);"),
                 id="502-device-launch"),
    pytest.param("HP502", "__device__ void f() { cudaDeviceSynchronize(); }",
                 id="502-device-synchronize"),
    pytest.param("HP502", "__global__ void child(int*);\n" + kernel(
        "void* args[] = {&out};\ncudaLaunchKernel((void*)child, dim3(1), dim3(64), args, 0, 0);"),
                 id="502-device-launch-kernel"),
    pytest.param("HP502", "__global__ void child(int*);\n__device__ void spawn(int* p) {\n"
                 "  cudaLaunchCooperativeKernel((void*)child, 1, 64, nullptr, 0, 0); }\n",
                 id="502-device-cooperative-launch"),
    pytest.param("HP502", kernel("void* b = cudaGetParameterBuffer(64, 8);"),
                 id="502-parameter-buffer"),
    # (ROCm 6.4, the default target, has regsPerMultiprocessor: tests/hazards/targets_test.py)
    pytest.param("HP503", "void f() { cudaDeviceProp prop; int r = prop.mpsEnabled; }",
                 id="503-missing-field"),
    pytest.param("HP503", "void f(const cudaDeviceProp& p) { bool t = p.major >= 7; }",
                 id="503-compute-capability"),
    pytest.param("HP503", "void f(cudaDeviceProp* p) { size_t s = p->sharedMemPerMultiprocessor; }",
                 id="503-through-pointer"),
    pytest.param("HP504", "__global__ void __launch_bounds__(256, 2) k(float* p) {}",
                 id="504-two-arguments"),
    pytest.param("HP504", "__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS) k() {}",
                 id="504-macros"),
    pytest.param("HP505", kernel("long long t0 = clock64();"), id="505-clock64"),
    pytest.param("HP505", "__device__ int f() { return (int)clock(); }", id="505-clock"),
    pytest.param("HP506", "void f(float** p) { cudaMallocManaged(p, 64); }", id="506-managed"),
    pytest.param("HP506",
                 "void f(float* p) { cudaMemAdvise(p, 64, cudaMemAdviseSetReadMostly, 0); }",
                 id="506-advise"),
    pytest.param("HP506", "void f(float* p, cudaStream_t s) { cudaMemPrefetchAsync(p, 64, 0, s); }",
                 id="506-prefetch"),
    pytest.param("HP507", "namespace cg = cooperative_groups;\n"
                 "__device__ int f(cg::thread_block_tile<32> t, int v) { return "
                 "cg::inclusive_scan(t, v); }", id="507-scan-through-alias"),
    pytest.param("HP701", "namespace cg = cooperative_groups;\n"
                 "__device__ int f(cg::thread_block_tile<32> t, int v) { return cg::reduce(t, v, "
                 "cg::plus<int>()); }", id="701-reduce-emulated-through-alias"),
    pytest.param("HP507", "__device__ void f() { cooperative_groups::memcpy_async(g, d, s, n); }",
                 id="507-memcpy-async"),
    pytest.param("HP508", "void f(cudaGraphExec_t* e, cudaGraph_t g) {\n"
                 "  cudaGraphInstantiateWithFlags(e, g, "
                 "cudaGraphInstantiateFlagUseNodePriority); }",
                 id="508-node-priority"),
    pytest.param("HP509", "void f(float* p) { cudaMemsetAsync(p, 0, 4, cudaStreamPerThread); }",
                 id="509-per-thread"),
    pytest.param("HP509", "#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1\n#ifdef "
                 "CUDA_API_PER_THREAD_DEFAULT_STREAM\nint x;\n#endif\n", id="509-macro-tested"),
]

LOOK_ALIKES = [
    pytest.param("HP420", 'const char* s = "asm volatile";', id="420-string"),
    pytest.param("HP420", "// asm(\"mov.u32 %0, 1;\")\nint x;", id="420-comment"),
    # the host compiler's own assembly builds as it did (issue 32 §6)
    pytest.param("HP420", "static inline unsigned long long ticks() {\n  unsigned lo, hi;\n"
                 '  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));\n'
                 "  return ((unsigned long long)hi << 32) | lo; }\n", id="420-host-rdtsc"),
    pytest.param("HP420", 'void relax() { asm volatile("pause" ::: "memory"); }\n'
                 'void cpu(int* r) { asm("cpuid" : "=a"(r[0]) : "a"(0) : "ebx", "ecx", "edx"); }',
                 id="420-host-x86"),
    pytest.param("HP420", '#define RDTSC(lo, hi) asm volatile("rdtsc" : "=a"(lo), "=d"(hi))\n'
                 '#define PTX_NAME "mov.u32"\n', id="420-macro-x86-or-no-asm"),
    pytest.param("HP501", "std::vector<float> texture_cache;", id="501-name-only"),
    pytest.param("HP501", "cudaTextureObject_t tex;", id="501-texture-object"),
    pytest.param("HP502", "__global__ void k(int*);\nvoid host(int* p) { k<<<1, 64>>>(p); }",
                 id="502-host-launch"),
    pytest.param("HP502", "void host() { cudaDeviceSynchronize(); }", id="502-host-sync"),
    pytest.param("HP502", "__global__ void k(int*);\nvoid host(int* p) {\n"
                 "  void* a[] = {&p};\n  cudaLaunchKernel((void*)k, dim3(1), dim3(64), a, 0, 0);\n"
                 "  cudaLaunchCooperativeKernel((void*)k, 1, 64, a, 0, 0); }",
                 id="502-host-launch-apis"),
    pytest.param("HP502", "struct cudaLauncher { void launch(); };\n"
                 "__device__ void f(cudaLauncher* l) { int cudaLaunches = 0; (void)cudaLaunches; }",
                 id="502-launch-look-alike-names"),
    pytest.param("HP503", "struct Q { int major; };\nvoid f(Q q) { int m = q.major; }",
                 id="503-other-struct"),
    pytest.param("HP503", "void f() { cudaDeviceProp p; size_t m = p.totalGlobalMem; }",
                 id="503-field-hip-has"),
    pytest.param("HP504", "__global__ void __launch_bounds__(256) k(float* p) {}",
                 id="504-one-argument"),
    pytest.param("HP505", "#include <ctime>\nvoid host() { clock_t t = clock(); }",
                 id="505-host-clock"),
    pytest.param("HP505", "__device__ int f(int clock64) { return clock64; }",
                 id="505-variable"),
    pytest.param("HP506", "void f(float** p) { cudaMalloc(p, 64); }", id="506-plain-malloc"),
    pytest.param("HP507", "namespace mine { int reduce(int); }\nint x = mine::reduce(1);",
                 id="507-other-namespace"),
    pytest.param("HP507", "__device__ void f() { auto t = cg::tiled_partition<16>(b); }",
                 id="507-supported-feature"),
    pytest.param("HP508", "void f(cudaGraphExec_t* e, cudaGraph_t g) {\n"
                 "  cudaGraphInstantiateWithFlags(e, g, "
                 "cudaGraphInstantiateFlagAutoFreeOnLaunch); }",
                 id="508-supported-flag"),
    pytest.param("HP509", "void f(cudaStream_t s) { cudaStreamSynchronize(s); }",
                 id="509-explicit-stream"),
]

FIXES = [
    pytest.param("__global__ void __launch_bounds__(256, 2) k(float* p) {}",
                 "__global__ void __launch_bounds__(256) k(float* p) {}", id="504-drop-min-blocks"),
    pytest.param("__global__ void __launch_bounds__(MAX_T, MIN_B) k() {}",
                 "__global__ void __launch_bounds__(MAX_T) k() {}", id="504-macros"),
]

SAFE_FIXES = [
    pytest.param("void f() { cudaDeviceProp p; size_t s = p.sharedMemPerMultiprocessor; }",
                 "void f() { hipDeviceProp_t p; size_t s = p.maxSharedMemoryPerMultiProcessor; }",
                 id="503-renamed-field"),
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
    assert fixed(before, unsafe=False) == before


@pytest.mark.parametrize(("before", "after"), SAFE_FIXES)
def test_safe_fix_applied_by_default(before, after):
    assert fixed(before, unsafe=False) == after


def test_asm_location_and_guard_are_reported():
    source = "__device__ int f() {\n#ifdef __CUDA_ARCH__\n  int r;\n" \
             '  asm("mov.u32 %0, 1;" : "=r"(r));\n  return r;\n#else\n  return 1;\n#endif\n}\n'
    result = convert_source(source, Settings())
    (asm,) = [f for f in result.findings if f.code == "HP420"]
    assert (asm.location.line, asm.location.column) == (4, 3)
    assert "mov.u32 %0, 1" in asm.finding.message and "__CUDA_ARCH__" in asm.finding.message


def test_user_declaration_of_a_listed_name_is_not_a_use():
    assert found("void cudaMemAdvise(int);", "HP506") == []


def _codes(source: str, name: str) -> list[str]:
    return [f.code for f in convert_source(source, name=name).findings]


def test_511_a_c_file_including_a_cxx_only_hip_header():
    source = "#include <stdio.h>\n#include <curand.h>\n#include <cusparse.h>\n"
    assert _codes(source, "sample.c").count("HP511") == 1  # hipRAND only, not hipSPARSE
    assert "HP511" not in _codes(source, "sample.cpp")
    assert "HP511" not in _codes(source, "sample.cu")
    assert convert_source(source, name="sample.c").output == \
        b"#include <stdio.h>\n#include <hiprand/hiprand.h>\n#include <hipsparse/hipsparse.h>\n"


def _findings_for(source: str, target: tuple[int, int]) -> list:
    return convert_source(source, name="fp.cu", settings=Settings(rocm_version=target)).findings


def test_513_fp4_and_fp6_headers_in_one_unit_on_rocm_7_2():
    source = "#include <cuda_fp6.h>\n#include <cuda_fp4.h>\n"
    result = convert_source(source, name="fp.cu", settings=Settings(rocm_version=(7, 2)))
    assert result.output == b"#include <hip/hip_fp6.h>\n#include <hip/hip_fp4.h>\n"
    [clash] = [f for f in result.findings if f.code == "HP513"]
    assert source[clash.finding.start:clash.finding.end] == "cuda_fp4.h"  # the second include
    assert "will not compile" in clash.finding.message and "split" in clash.finding.message


def test_513_look_alikes_one_header_or_an_older_target():
    assert "HP513" not in [f.code for f in _findings_for("#include <cuda_fp4.h>\n", (7, 2))]
    assert "HP513" not in [f.code for f in _findings_for(
        "#include <cuda_fp6.h>\n#include <cuda_fp8.h>\n#include <cuda_fp6.h>\n", (7, 2))]
    # 6.4 has neither header (HP905 for each): nothing to clash.
    assert "HP513" not in [f.code for f in _findings_for(
        "#include <cuda_fp4.h>\n#include <cuda_fp6.h>\n", (6, 4))]
