"""Generated CUDA-like sources, hostile ones included, and the properties
every conversion must have.  Used by the CI test (fuzz_test.py, bounded and
derandomised) and by the long run (long_run.py)."""
from __future__ import annotations

from hypothesis import strategies as st

from hipport.api import convert_source
from hipport.edits import apply_fixes
from hipport.parse.syntax import SyntaxBackend
from hipport.settings import Settings

FRAGMENTS = [
    # ordinary CUDA
    b"#include <cuda_runtime.h>", b"#include <cuda.h>", b'#include "cuda_helpers.cuh"',
    b"#include <cublas_v2.h>", b"#include <curand_kernel.h>", b"#pragma once",
    b"#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) abort(); } while (0)",
    b"#define STR(x) #x", b"#define CAT(a, b) a##b", b"CAT(cuda, Free)(p);", b"STR(cudaMalloc);",
    b"#define FREE(cudaFree) cudaFree(p)",
    b"template <typename cudaStream_t> void u(cudaStream_t);",
    b"namespace cub { int x; }", b"using namespace cub;", b"struct cudaDeviceProp q; q.major;",
    b"#ifdef __CUDACC__", b"#if CUDART_VERSION >= 11000", b"#elif defined(FOO)", b"#else",
    b"#endif", b"#if 0", b"cudaStream_t s; cudaEvent_t e;", b"float* d = nullptr;",
    b"void f() { cudaMalloc(&d, 16); cudaMemcpy(d, h, 16, cudaMemcpyHostToDevice); }",
    b"void g() { cudaFree(d); obj.cudaFree(1); ns::cudaMalloc(2); ::cudaFree(d); }",
    b"__global__ void k(float* p) { p[threadIdx.x] = __shfl_down_sync(0xffffffff, p[0], 1); }",
    b"__device__ int lane() { return threadIdx.x % 32; }",
    b"void h() { k<<<1, 64>>>(d); k<<<dim3(2), 32, 0, s>>>(d); }",
    b"template <typename T, int N> __global__ void t(T* p) {}",
    b"void l() { t<float, 2><<<1, 1>>>(d); a::b::c<int><<<g, b>>>(x); }",
    b"cublasHandle_t hd; cublasCreate(&hd);", b"cudaError_t err = cudaGetLastError();",
    b"int my_cudaMalloc = 0; int cudaFreeCount;", b"cudaUnknownThing(1);",
    b"void z() { cudaMemcpyToSymbol(sym, h, 4); }", b"auto r = R\"(cudaFree(x))\";",
    b"// cudaMalloc in a comment", b"/* cudaFree(d) */", b'const char* m = "cudaMalloc";',
    b"x = a<b<c>>(d);", b"<% %> <: :>", b"int q = 0 \\", b"??=define X",
    # hostile pieces: broken syntax, odd bytes, odd line ends, deep nesting
    b"{", b"}", b"(", b")", b";", b"<<<", b">>>", b'"', b"'", b"/*", b"*/", b"#include",
    b"#define X(", b"\\", b"#", b"@", b"\x00", b"\xff\xfe", b"\xc3\x28", b"caf\xe9",
    "caf\u00e9 \u4e2d\u6587".encode(), b"\xef\xbb\xbf", b"\r", b"\x0c", b"\x1a",
    b"#if A\n" * 40 + b"cudaFree(p);" + b"\n#endif" * 40,
    b"(" * 300 + b"cudaFree(p)" + b")" * 300,
    b"a" * 3000, b"cudaFree(p);" * 200,
]
SEPARATORS = st.sampled_from([b"\n", b"\r\n", b" ", b"\n\n", b"\t", b"\r", b""])


@st.composite
def cuda_like(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.sampled_from(FRAGMENTS), max_size=20))
    return b"".join(p + draw(SEPARATORS) for p in parts)


SETTINGS = st.builds(Settings, launch_syntax=st.sampled_from(["keep", "hip"]),
                     unsafe_fixes=st.booleans())
_BACKEND = SyntaxBackend()


def check_conversion(source: bytes, config: Settings) -> None:
    """Never raises; bytes outside the applied edits are kept; no new parse
    errors; converting the output again changes nothing."""
    result = convert_source(source, config)
    assert isinstance(result.output, bytes)
    codes = {f.code for f in result.findings}
    assert "HP006" not in codes, [f.finding.message for f in result.findings]
    fixes = [f.finding.fix for f in result.findings if f.applied and f.finding.fix]
    replay = apply_fixes(source, fixes)
    assert replay.skipped == () and replay.data == result.output
    if result.changed:
        before = _BACKEND.error_count(source)
        assert _BACKEND.error_count(result.output) <= before
    again = convert_source(result.output, config)
    assert again.output == result.output
