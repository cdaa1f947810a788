"""CUDA's C++ overloads HIP lacks (docs/cxx-overloads.md): the argument is
cast, or the flags form chosen, where the target ROCm release needs it, and
left alone where it is already in the C form."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

ALL = ((5, 2), (5, 7), (6, 4))


def convert(body: str, target: tuple[int, ...] | None = (6, 4)) -> str:
    source = f"void f(float* p, float* h, float** pp, size_t s, cudaEvent_t e) {{\n  {body}\n}}\n"
    out = convert_source(source, Settings(rocm_version=target)).output.decode()
    return out.split("\n")[1].strip()


@pytest.mark.parametrize("target", ALL)
@pytest.mark.parametrize("before, after", [
    pytest.param("cudaHostGetDevicePointer(&p, h, 0);",
                 "hipHostGetDevicePointer((void**)&p, h, 0);", id="device-pointer"),
    pytest.param("cudaHostGetDevicePointer( &pp[1], h, 0);",
                 "hipHostGetDevicePointer( (void**)&pp[1], h, 0);", id="element"),
    pytest.param("cudaHostGetDevicePointer(c ? &p : &h, h, 0);",
                 "hipHostGetDevicePointer((void**)(c ? &p : &h), h, 0);", id="expression"),
    pytest.param("cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);",
                 "hipFuncSetAttribute((const void*)k, "
                 "hipFuncAttributeMaxDynamicSharedMemorySize, 0);",
                 id="set-attribute"),
    pytest.param("cudaFuncSetCacheConfig(ns::k<float, 4>, c);",
                 "hipFuncSetCacheConfig((const void*)ns::k<float, 4>, c);", id="template-kernel"),
    pytest.param("cudaFuncSetSharedMemConfig(k, c);",
                 "hipFuncSetSharedMemConfig((const void*)k, c);", id="shared-mem-config"),
    pytest.param("cudaFuncGetAttributes(&a, k);",
                 "hipFuncGetAttributes(&a, (const void*)k);", id="get-attributes"),
    pytest.param("cudaLaunchKernel(k, g, b, args, 0, st);",
                 "hipLaunchKernel((const void*)k, g, b, args, 0, st);", id="launch-kernel"),
    pytest.param("cudaEventCreate(&e, cudaEventDisableTiming);",
                 "hipEventCreateWithFlags(&e, hipEventDisableTiming);", id="event-flags"),
    pytest.param("cudaGraphInstantiate(&x, g, 0);",
                 "hipGraphInstantiateWithFlags(&x, g, 0);", id="graph-flags"),
])
def test_rewrites(before: str, after: str, target: tuple[int, ...]):
    assert convert(before, target) == after


@pytest.mark.parametrize("target", ALL)
@pytest.mark.parametrize("before, after", [
    pytest.param("cudaHostGetDevicePointer((void**)&p, h, 0);",
                 "hipHostGetDevicePointer((void**)&p, h, 0);", id="c-cast"),
    pytest.param("cudaHostGetDevicePointer(reinterpret_cast<void **>(&p), h, 0);",
                 "hipHostGetDevicePointer(reinterpret_cast<void **>(&p), h, 0);", id="cxx-cast"),
    pytest.param("cudaFuncSetAttribute((void*)k, a, 0);",
                 "hipFuncSetAttribute((void*)k, a, 0);", id="kernel-void-cast"),
    pytest.param("cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(k));",
                 "hipFuncGetAttributes(&a, reinterpret_cast<const void*>(k));",
                 id="kernel-cxx-cast"),
    pytest.param("cudaMalloc(&p, s);", "hipMalloc(&p, s);", id="malloc-has-template"),
    pytest.param("cudaMallocHost(&p, s);", "hipHostMalloc(&p, s);", id="host-malloc-has-template"),
    pytest.param("cudaHostAlloc(&p, s, 0);", "hipHostMalloc(&p, s, 0);",
                 id="host-alloc-has-template"),
    pytest.param("cudaMallocManaged(&p, s);", "hipMallocManaged(&p, s);",
                 id="managed-has-template"),
    pytest.param("cudaMallocAsync(&p, s, 0);", "hipMallocAsync(&p, s, 0);",
                 id="async-has-template"),
    pytest.param("cudaEventCreate(&e);", "hipEventCreate(&e);", id="event-no-flags"),
    pytest.param("cudaGraphInstantiate(&x, g, 0, 0, 0);", "hipGraphInstantiate(&x, g, 0, 0, 0);",
                 id="graph-legacy-form"),
    pytest.param("auto create = cudaEventCreate;", "auto create = hipEventCreate;",
                 id="event-not-called"),
])
def test_lookalikes_keep_their_arguments(before: str, after: str, target: tuple[int, ...]):
    assert convert(before, target) == after


@pytest.mark.parametrize("target, after", [
    ((5, 2), "hipMallocPitch((void**)&p, &s, 4, 4);"),
    ((5, 7), "hipMallocPitch((void**)&p, &s, 4, 4);"),
    ((6, 4), "hipMallocPitch(&p, &s, 4, 4);"),
    (None, "hipMallocPitch((void**)&p, &s, 4, 4);"),  # no target: the form every release takes
])
def test_malloc_pitch_is_cast_for_releases_without_the_template(target, after):
    assert convert("cudaMallocPitch(&p, &s, 4, 4);", target) == after


def convert_blas(call: str) -> str:
    source = ("void g(cublasHandle_t h, int n, const __half* a, const __half* b, __half* c,\n"
              "       const __half* const* as, __half* const* cs, __half one) {\n"
              f"  {call}\n}}\n")
    return convert_source(source, Settings()).output.decode().split("\n")[2].strip()


@pytest.mark.parametrize("before, after", [
    pytest.param("cublasHgemm(h, o, o, n, n, n, &one, a, n, b, n, &one, c, n);",
                 "hipblasHgemm(h, o, o, n, n, n, (const hipblasHalf*)&one, "
                 "(const hipblasHalf*)a, n, "
                 "(const hipblasHalf*)b, n, (const hipblasHalf*)&one, (hipblasHalf*)c, n);",
                 id="gemm"),
    pytest.param("cublasHgemmBatched(h, o, o, n, n, n, &one, as, n, as, n, &one, cs, n, 4);",
                 "hipblasHgemmBatched(h, o, o, n, n, n, (const hipblasHalf*)&one, "
                 "(const hipblasHalf* const*)as, n, (const hipblasHalf* const*)as, n, "
                 "(const hipblasHalf*)&one, (hipblasHalf* const*)cs, n, 4);", id="batched"),
    pytest.param("cublasHgemmStridedBatched(h, o, o, n, n, n, &one, a, n, 8, b + n, n, 8, "
                 "&one, c, n, 8, 4);",
                 "hipblasHgemmStridedBatched(h, o, o, n, n, n, (const hipblasHalf*)&one, "
                 "(const hipblasHalf*)a, n, 8, (const hipblasHalf*)(b + n), n, 8, "
                 "(const hipblasHalf*)&one, (hipblasHalf*)c, n, 8, 4);", id="strided"),
    pytest.param("cublasHgemm(h, o, o, n, n, n, (const hipblasHalf*)&one, a, n, b, n, "
                 "reinterpret_cast<const hipblasHalf*>(&one), (hipblasHalf *)c, n);",
                 "hipblasHgemm(h, o, o, n, n, n, (const hipblasHalf*)&one, "
                 "(const hipblasHalf*)a, n, "
                 "(const hipblasHalf*)b, n, reinterpret_cast<const hipblasHalf*>(&one), "
                 "(hipblasHalf *)c, n);", id="partly-cast-already"),
    pytest.param("cublasSgemm(h, o, o, n, n, n, &f, x, n, y, n, &f, z, n);",
                 "hipblasSgemm(h, o, o, n, n, n, &f, x, n, y, n, &f, z, n);",
                 id="single-untouched"),
])
def test_half_gemm_pointers_are_cast_to_hipblas_half(before: str, after: str):
    assert convert_blas(before) == after


@pytest.mark.parametrize("target, text", [
    ((5, 7), "ROCm 5.7, the target, has no `T**` overload"),
    (None, "HIP before ROCm 6.4 has no `T**` overload"),
])
def test_the_pitch_cast_names_the_target(target, text):
    result = convert_source("cudaMallocPitch(&p, &s, 4, 4);", Settings(rocm_version=target))
    (message,) = [f.finding.message for f in result.findings if "hipMallocPitch" in
                  f.finding.message]
    assert text in message
