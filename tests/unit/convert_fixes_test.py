"""Rewrites: each case is (before, after)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

FIXES = [
    pytest.param("void f() { cudaMalloc(&p, n); }", "void f() { hipMalloc(&p, n); }", id="call"),
    pytest.param("void f() { CHECK(cudaMalloc(&p, n)); }",
                 "void f() { CHECK(hipMalloc(&p, n)); }", id="call-inside-macro-call"),
    pytest.param("auto f = &cudaFree;", "auto f = &hipFree;", id="function-address"),
    pytest.param("void f() { ::cudaFree(p); }", "void f() { ::hipFree(p); }", id="global-scope"),
    pytest.param("cudaStream_t s;", "hipStream_t s;", id="type"),
    pytest.param("std::vector<cudaEvent_t> v;", "std::vector<hipEvent_t> v;",
                 id="template-argument"),
    pytest.param("void f(cudaStream_t s, cudaError_t* e);",
                 "void f(hipStream_t s, hipError_t* e);", id="parameter-types"),
    pytest.param("auto k = cudaMemcpyHostToDevice;", "auto k = hipMemcpyHostToDevice;",
                 id="enum-value"),
    pytest.param("#define CHECK(x) if ((x) != cudaSuccess) abort()\n",
                 "#define CHECK(x) if ((x) != hipSuccess) abort()\n", id="define-body"),
    pytest.param('#define CHECK(x) do { cudaError_t e = (x); puts("cudaError_t"); } while (0)\n',
                 '#define CHECK(x) do { hipError_t e = (x); puts("cudaError_t"); } while (0)\n',
                 id="define-body-keeps-string"),
    pytest.param("#define FREE(cudaFree) cudaFree(p)\n", "#define FREE(cudaFree) cudaFree(p)\n",
                 id="macro-parameter-named-like-api-stays"),
    pytest.param("#define FREE(cudaFree) cudaFree(p)\nvoid f() { cudaFree(q); }\n",
                 "#define FREE(cudaFree) cudaFree(p)\nvoid f() { hipFree(q); }\n",
                 id="macro-parameter-is-local-to-its-macro"),
    pytest.param("#include <cuda_runtime.h>\n", "#include <hip/hip_runtime.h>\n", id="include"),
    pytest.param('#include "cuda_runtime.h"\n', '#include "hip/hip_runtime.h"\n',
                 id="quoted-include"),
    pytest.param("#include <cuda.h>\n#include <cuda_runtime.h>\n#include <vector>\n",
                 "#include <hip/hip_runtime.h>\n#include <vector>\n", id="include-dedupe"),
    pytest.param("#ifdef USE_A\n#include <cuda.h>\n#else\n#include <cuda_runtime.h>\n#endif\n",
                 "#ifdef USE_A\n#include <hip/hip_runtime.h>\n#else\n#include <hip/hip_runtime.h>\n"
                 "#endif\n", id="include-in-both-branches-kept"),
    pytest.param("#if X\nvoid a() { cudaFree(p); }\n#else\nvoid b() { cudaFree(q); }\n#endif\n",
                 "#if X\nvoid a() { hipFree(p); }\n#else\nvoid b() { hipFree(q); }\n#endif\n",
                 id="every-branch"),
    pytest.param("__device__ float f(float v) { return __shfl_down_sync(0xffffffff, v, 1); }",
                 "__device__ float f(float v) { return __shfl_down(v, 1); }",
                 id="shfl-sync-mask-dropped"),
    pytest.param("void f() { cudaMemcpyToSymbol(c_w, h, sizeof(h)); }",
                 "void f() { hipMemcpyToSymbol(HIP_SYMBOL(c_w), h, sizeof(h)); }",
                 id="symbol-wrapped"),
    pytest.param("void f() { cudaMemcpyFromSymbol(h, c_w, 4); cudaGetSymbolAddress(&p, c_w); }",
                 "void f() { hipMemcpyFromSymbol(h, HIP_SYMBOL(c_w), 4); "
                 "hipGetSymbolAddress(&p, HIP_SYMBOL(c_w)); }", id="second-argument-symbol"),
    pytest.param("void f() {\r\n  cudaFree(p);\r\n}\r\n", "void f() {\r\n  hipFree(p);\r\n}\r\n",
                 id="crlf-kept"),
    pytest.param("\ufeffvoid f() { cudaFree(p); }\n", "\ufeffvoid f() { hipFree(p); }\n",
                 id="bom-kept"),
    pytest.param("void f() {\tcudaFree(p);   \n}\n", "void f() {\thipFree(p);   \n}\n",
                 id="tabs-and-trailing-space-kept"),
    pytest.param('void f() { cudaFree(p); /* é ü */ puts("ß"); cudaFree(q); }',
                 'void f() { hipFree(p); /* é ü */ puts("ß"); hipFree(q); }', id="non-ascii"),
    # A checking macro with no semicolon after it reads as a declaration of a
    # function `cudaMemcpy` (`CHECK (cudaMemcpy(...))`): still CUDA's call.
    pytest.param("int f() {\n    CHECK( cudaMalloc((void**) &d, 4) )\n\n"
                 "    CHECK( cudaMemcpy(d, h, n * sizeof(float),\n"
                 "                      cudaMemcpyHostToDevice) )\n    return 0;\n}\n",
                 "int f() {\n    CHECK( hipMalloc((void**) &d, 4) )\n\n"
                 "    CHECK( hipMemcpy(d, h, n * sizeof(float),\n"
                 "                      hipMemcpyHostToDevice) )\n    return 0;\n}\n",
                 id="macro-call-read-as-declaration"),
    # A leading `::` names the global namespace: still CUB's.
    pytest.param("void f() { ::cub::DeviceReduce::Sum(t, b, i, o, n); }",
                 "void f() { ::hipcub::DeviceReduce::Sum(t, b, i, o, n); }",
                 id="global-scope-namespace-call"),
    pytest.param("typedef ::cub::BlockReduce<int, 128> R;",
                 "typedef ::hipcub::BlockReduce<int, 128> R;", id="global-scope-namespace-type"),
    # ... in a #define body too, and in a using-directive.
    pytest.param("#define SUM(t, b, i, o, n) ::cub::DeviceReduce::Sum(t, b, i, o, n)\n",
                 "#define SUM(t, b, i, o, n) ::hipcub::DeviceReduce::Sum(t, b, i, o, n)\n",
                 id="global-scope-namespace-define-body"),
    pytest.param("#define TS typename ::cub::BlockReduce<int, 128>::TempStorage\n"
                 "#define R(a, b) return cub::Max()(a, b)\n",
                 "#define TS typename ::hipcub::BlockReduce<int, 128>::TempStorage\n"
                 "#define R(a, b) return hipcub::Max()(a, b)\n", id="namespace-define-body"),
    pytest.param("using namespace cub;\nusing namespace ::cub;\n",
                 "using namespace hipcub;\nusing namespace ::hipcub;\n", id="using-directive"),
    # An enumerator named through its enum (C++11 allows it for unscoped enums).
    pytest.param("auto k = cudaMemcpyKind::cudaMemcpyHostToDevice;\n"
                 "bool ok(cudaError_t e) { return e == ::cudaError_t::cudaSuccess; }\n"
                 "#define K cudaMemcpyKind::cudaMemcpyDeviceToHost\n",
                 "auto k = hipMemcpyKind::hipMemcpyHostToDevice;\n"
                 "bool ok(hipError_t e) { return e == ::hipError_t::hipSuccess; }\n"
                 "#define K hipMemcpyKind::hipMemcpyDeviceToHost\n", id="enumerator-through-enum"),
    # HIP's NVIDIA platform defines __HIPCC__ empty: `#elif __HIPCC__` would
    # be an error there (issue 33), `defined(__HIPCC__)` is valid everywhere.
    pytest.param("#if 0\n#elif __CUDACC__\nint a;\n#endif\n",
                 "#if 0\n#elif defined(__HIPCC__)\nint a;\n#endif\n", id="elif-platform-value"),
    pytest.param("#if __CUDACC__ && X\n#endif\n", "#if defined(__HIPCC__) && X\n#endif\n",
                 id="if-platform-value"),
    pytest.param("#if defined(__CUDACC__)\n#endif\n#if defined __CUDACC__\n#endif\n"
                 "#ifdef __CUDACC__\n#endif\nint v = __CUDACC__;\n",
                 "#if defined(__HIPCC__)\n#endif\n#if defined __HIPCC__\n#endif\n"
                 "#ifdef __HIPCC__\n#endif\nint v = __HIPCC__;\n", id="platform-defined-kept"),
]


@pytest.mark.parametrize(("before", "after"), FIXES)
def test_rewrite(before, after):
    out = convert_source(before).output.decode("utf-8")
    if "#include" not in before:  # the added runtime include has tests of its own
        out = out.replace("#include <hip/hip_runtime.h>\n", "", 1)
    assert out == after


RUNTIME_INCLUDE = [
    pytest.param("// license\n#include <cstdio>\n__global__ void k() {}\n",
                 "// license\n#include <hip/hip_runtime.h>\n#include <cstdio>\n"
                 "__global__ void k() {}\n",
                 id="before-first-include"),
    pytest.param("#pragma once\n__device__ int f();\n",
                 "#pragma once\n#include <hip/hip_runtime.h>\n__device__ int f();\n",
                 id="after-pragma-once"),
    pytest.param("#ifndef K_H\n#define K_H\n__global__ void k();\n#endif\n",
                 "#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n"
                 "__global__ void k();\n#endif\n",
                 id="inside-include-guard"),
    pytest.param("void f(float* p) {\r\n  k<<<1, 1>>>(p);\r\n}\r\n",
                 "#include <hip/hip_runtime.h>\r\nvoid f(float* p) {\r\n  k<<<1, 1>>>(p);\r\n}\r\n",
                 id="launch-only-crlf"),
]


@pytest.mark.parametrize(("before", "after"), RUNTIME_INCLUDE)
def test_runtime_include_added_to_kernel_code(before, after):
    assert convert_source(before).output.decode() == after


@pytest.mark.parametrize("source", [
    pytest.param("#include <cuda_runtime.h>\n__global__ void k() {}\n", id="has-cuda-include"),
    pytest.param("#include <hip/hip_runtime.h>\n__global__ void k() {}\n", id="has-hip-include"),
    pytest.param("#include <cuda_runtime_api.h>\nint f(cudaStream_t s);\n", id="has-api-include"),
    pytest.param("int threadIdx_count;\nvoid f() { cudaFree(p); }\n", id="host-api-only"),
])
def test_runtime_include_not_added(source):
    assert b"#include <hip/hip_runtime.h>\n#" not in convert_source(source).output
    assert convert_source(source).output.count(b"hip_runtime") <= 1


LAUNCHES = [
    pytest.param("void h() { k<<<g, b>>>(x, y); }",
                 "void h() { hipLaunchKernelGGL(k, g, b, 0, 0, x, y); }", id="two-config-args"),
    pytest.param("void h() { k<<<g, b, shm>>>(x); }",
                 "void h() { hipLaunchKernelGGL(k, g, b, shm, 0, x); }", id="three-config-args"),
    pytest.param("void h() { k<<<dim3(g), b, 0, s>>>(); }",
                 "void h() { hipLaunchKernelGGL(k, dim3(g), b, 0, s); }", id="four-no-args"),
    pytest.param("void h() { scale<float, 4><<<g, b, 0, s>>>(p, 2.0f, n); }",
                 "void h() { hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 4>), g, b, 0, s, "
                 "p, 2.0f, n); }", id="template-with-comma"),
    pytest.param("void h() { k<<<g, b, 0, cudaStreamPerThread>>>(d_cudaFree); }",
                 "void h() { hipLaunchKernelGGL(k, g, b, 0, hipStreamPerThread, d_cudaFree); }",
                 id="renames-inside-launch"),
]


@pytest.mark.parametrize(("before", "after"), LAUNCHES)
def test_launch_syntax_hip(before, after):
    before, after = "#include <cuda.h>\n" + before, "#include <hip/hip_runtime.h>\n" + after
    assert convert_source(before, Settings(launch_syntax="hip")).output.decode() == after


@pytest.mark.parametrize(("before", "_after"), LAUNCHES)
def test_launch_syntax_kept_by_default(before, _after):
    out = convert_source(before).output.decode()
    assert "<<<" in out and "hipLaunchKernelGGL" not in out


def test_non_utf8_bytes_outside_edits_are_preserved():
    before = b"// caf\xe9 \xff\xfe\nvoid f() { cudaFree(p); }\n"
    assert convert_source(before).output == b"// caf\xe9 \xff\xfe\nvoid f() { hipFree(p); }\n"


def test_conversion_is_idempotent_on_its_output():
    once = convert_source("#include <cuda.h>\nvoid f() { cudaFree(p); k<<<1, 2>>>(); }",
                          Settings(launch_syntax="hip")).output
    assert convert_source(once, Settings(launch_syntax="hip")).output == once
