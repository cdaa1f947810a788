"""Partly ported files (docs/preprocessor.md, section 5): the project's own
HIP branches stay byte for byte, the code outside them is converted, and a
CUDA branch beside them that only nvcc takes is left alone too."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.parse.hip_branches import own_hip

# Shape 1: the HIP platform macro, CUDA in the #else and in the shared code.
PLATFORM = """\
#ifdef __HIP_PLATFORM_AMD__
#include <hip/hip_runtime.h>
#define gpuMalloc hipMalloc
#else
#include <cuda_runtime.h>
#define gpuMalloc cudaMalloc
#endif

__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }

int run(float* d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 1, 0, s>>>(d);
  return cudaFree(d) == cudaSuccess;
}
"""

# Shape 2: a switch of the project's, whose branch defines CUDA names for
# its HIP build; the shared code uses them.
ALIASES = """\
#include <hip/hip_runtime.h>
#define cudaMalloc hipMalloc
#define cudaSuccess hipSuccess
typedef hipStream_t cudaStream_t;
inline hipError_t cudaFree(void* p) { return hipFree(p); }
"""
SHARED = """\
int run(float** d) {
  cudaStream_t s;
  if (cudaMalloc(d, 4) != cudaSuccess) return 1;
  return cudaFree(*d) == cudaSuccess;
}
"""
SHARED_HIP = SHARED.replace("cuda", "hip")


def _convert(text: str, name: str = "gpu.cu") -> tuple[str, list[str]]:
    result = convert_source(text, name=name)
    return result.output.decode(), [f.code for f in result.findings]


def test_platform_branch_kept_else_branch_and_shared_code_converted():
    out, codes = _convert(PLATFORM)
    head = PLATFORM.split("#else\n")[0]
    assert out.startswith(head + "#else\n#include <hip/hip_runtime.h>\n"
                          "#define gpuMalloc hipMalloc\n")
    assert "hipStream_t s;\n  hipStreamCreate(&s);" in out
    assert "return hipFree(d) == hipSuccess;" in out
    assert "cuda" not in out.split("#endif")[1]
    assert codes.count("HP327") == 1


@pytest.mark.parametrize("opening", [
    "#if defined(BUILD_HIP)\n", "#ifdef USE_HIP\n", "#if USE_ROCM\n", "#if USE_ROCM == 1\n",
    "#if defined(GGML_USE_HIP) && !defined(NDEBUG)\n",
    "#if defined(USE_HIP) || defined(__HIP_PLATFORM_AMD__)\n",
])
def test_project_switch_branch_kept_and_what_it_defines_converted_outside(opening: str):
    text = opening + ALIASES + "#else\n#include <cuda_runtime.h>\n#endif\n\n" + SHARED
    out, codes = _convert(text)
    # The branch as written; the CUDA branch and the shared code converted
    # (the names the branch defines no longer keep their uses CUDA's).
    assert out == (opening + ALIASES + "#else\n#include <hip/hip_runtime.h>\n#endif\n\n"
                   + SHARED_HIP)
    assert "HP327" in codes
    assert _convert(out)[0] == out, "converting twice must change nothing"


def test_negated_switch_makes_the_else_branch_the_projects():
    text = ("#ifndef USE_HIP\n#include <cuda_runtime.h>\n#else\n" + ALIASES + "#endif\n"
            + SHARED)
    out, _ = _convert(text)
    assert out == ("#ifndef USE_HIP\n#include <hip/hip_runtime.h>\n#else\n" + ALIASES
                   + "#endif\n" + SHARED_HIP)


def test_finding_says_what_was_done():
    result = convert_source("#ifdef USE_HIP\n" + ALIASES + "#endif\n" + SHARED, name="g.cu")
    said = next(f.finding.message for f in result.findings if f.code == "HP327")
    assert said.startswith("`#ifdef USE_HIP` opens the project's own HIP branch: left as written")
    assert "does not define `USE_HIP`" in said
    assert "`cudaFree`, `cudaMalloc`, `cudaStream_t`, ..., defined in it for the HIP build, " \
        "are not taken for the file's own names outside it" in said
    platform = convert_source(PLATFORM, name="g.cu")
    said = next(f.finding.message for f in platform.findings if f.code == "HP327")
    assert "(every HIP build takes it)" in said and "does not define" not in said


def test_an_include_only_the_switch_sees_does_not_count():
    """nvcc's implicit runtime include was all the CUDA build had."""
    text = "#ifdef USE_HIP\n#include <hip/hip_runtime.h>\n#endif\n__global__ void k() {}\n"
    out, codes = _convert(text)
    assert out == "#include <hip/hip_runtime.h>\n" + text
    assert "HP306" in codes


# Shape 3: already portable; hipcc takes the HIP branch, nvcc the CUDA one.
PORTABLE = [
    pytest.param("""\
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define WARP_SIZE warpSize
inline hipError_t gpu_alloc(void** p, size_t n) { return hipMalloc(p, n); }
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#define WARP_SIZE 32
inline cudaError_t gpu_alloc(void** p, size_t n) { return cudaMalloc(p, n); }
__device__ float sum(float v) {
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  return v;
}
#endif
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
""", id="hip-then-cuda-compiler"),
    pytest.param("""\
#ifdef __CUDACC__
#include <cuda_runtime.h>
#define GPU_FREE cudaFree
#else
#include <hip/hip_runtime.h>
#define GPU_FREE hipFree
#endif
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
int f(float* p) { k<<<1, 1>>>(p); return GPU_FREE(p) == 0; }
""", id="cuda-compiler-else-hip"),
    pytest.param("""\
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#include <hip/hip_runtime.h>
#define cudaMalloc hipMalloc
#elif defined(__NVCC__)
#include <cuda_runtime.h>
#endif
int f(void** p) { return hipMalloc(p, 4); }
""", id="platform-or-then-nvcc"),
]


@pytest.mark.parametrize("text", PORTABLE)
def test_portable_file_stays_as_it_was(text: str):
    result = convert_source(text, name="portable.cu")
    assert result.output.decode() == text
    codes = [f.code for f in result.findings]
    assert "HP327" in codes
    # nothing is said of the CUDA branch: hipcc never compiles it
    assert not [c for c in codes if c.startswith(("HP4", "HP1", "HP9"))], codes


@pytest.mark.parametrize("text, expected", [
    # a host/device macro: the #else is the host compiler's, not HIP code
    pytest.param("#ifdef __CUDACC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n",
                 "#ifdef __HIPCC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n",
                 id="host-device-macro"),
    # CUDA or HIP compiler: not a branch only HIP takes
    pytest.param("#if defined(__CUDACC__) || defined(__HIPCC__)\nvoid f() { cudaDeviceReset(); }\n"
                 "#endif\n",
                 "#if defined(__HIPCC__) || defined(__HIPCC__)\nvoid f() { hipDeviceReset(); }\n"
                 "#endif\n", id="either-compiler"),
    # a value test that holds when the switch is undefined
    pytest.param("#if USE_ROCM == 0\nvoid f() { cudaDeviceReset(); }\n#endif\n",
                 "#if USE_ROCM == 0\nvoid f() { hipDeviceReset(); }\n#endif\n",
                 id="switch-off-test"),
    # a switch that is not HIP's
    pytest.param("#ifdef USE_CUDA\nvoid f() { cudaDeviceReset(); }\n#endif\n",
                 "#ifdef USE_CUDA\nvoid f() { hipDeviceReset(); }\n#endif\n", id="cuda-switch"),
])
def test_look_alikes_convert_as_before(text: str, expected: str):
    out, codes = _convert(text, "util.cpp")
    assert out == expected
    assert "HP327" not in codes


def test_a_name_the_file_defines_outside_hip_branches_stays_its_own():
    text = "#ifdef USE_HIP\n#include <hip/hip_runtime.h>\n#endif\n" \
           "static int cudaCheck(int e) { return e; }\nint g() { return cudaCheck(1); }\n"
    out, codes = _convert(text, "util.cpp")
    assert out == text
    assert "HP900" not in codes


@pytest.mark.parametrize("text, switches", [
    (b"#ifdef USE_HIP\na\n#endif\n", ["USE_HIP"]),
    (b"#if !defined(USE_HIP)\na\n#elif X\nb\n#else\nc\n#endif\n", ["USE_HIP", "USE_HIP"]),
    (b"#if USE_ROCM != 0 && X\na\n#endif\n", ["USE_ROCM"]),
    (b"#if USE_ROCM > 0\na\n#endif\n", ["USE_ROCM"]),
    (b"#if USE_ROCM >= 0\na\n#endif\n", []),
    (b"#if defined(USE_HIP) || X\na\n#endif\n", []),
    (b"#ifdef __CUDACC__\nhipMalloc\n#elif Y\nb\n#else\nhipFree\n#endif\n", []),
    (b"#if defined(A)\n#ifdef __HIPCC__\nhipFree(p);\n#endif\n#endif\n", ["__HIPCC__"]),
    (b"#ifdef USE_HIP\nunterminated\n", []),
    # what hipport writes for __CUDACC__, over CUDA code added since
    (b"#ifdef __HIPCC__\ncudaFree(p);\n#endif\n", []),
    (b"#ifdef __HIPCC__\nhipFree(p);\n#endif\n", ["__HIPCC__"]),
    (b"#ifdef __AMDGCN__\nx\n#endif\n", ["__AMDGCN__"]),
    (b'#if 0 // "USE_HIP"\n#endif\n', []),
    (b"/* disabled:\n#ifdef USE_HIP\n*/\nx\n#endif\n", []),
])
def test_which_branches_are_hip(text: bytes, switches: list[str]):
    own = own_hip(text)
    assert ([b.switch for b in own.branches] if own else []) == switches
