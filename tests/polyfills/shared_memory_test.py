"""cuda_pipeline.h's primitives and the __cvta_* address-space conversions
(issue 32): the include becomes the polyfill header and the calls its exact
fallbacks, where the converter used to keep the include (HP901) and leave
the calls to fail the build."""
from __future__ import annotations

from hipport.api import convert_source
from hipport.polyfills import covered_names, render
from hipport.settings import Settings

PIPELINE = (b"#include <cuda_runtime.h>\n#include <cuda_pipeline.h>\n"
            b"__global__ void k(const int4* in, int4* out) {\n"
            b"  __shared__ int4 buf[64];\n"
            b"  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], 16);\n"
            b"  __pipeline_commit();\n"
            b"  __pipeline_wait_prior(0);\n"
            b"  __syncthreads();\n"
            b"  out[threadIdx.x] = buf[threadIdx.x];\n"
            b"}\n")


def _codes(result) -> list[tuple[str, str | None]]:
    return [(f.code, f.finding.cuda_name) for f in result.findings]


def test_the_include_becomes_the_polyfill_header_and_the_calls_are_emulated():
    result = convert_source(PIPELINE, name="k.cu")
    assert result.output.startswith(b"#include <hip/hip_runtime.h>\n"
                                    b'#include "hipport_polyfills.h"\n__global__ void k(')
    assert b"cuda_pipeline" not in result.output
    found = _codes(result)
    assert ("HP901", "cuda_pipeline.h") not in found
    assert {("HP701", "__pipeline_memcpy_async"), ("HP701", "__pipeline_commit"),
            ("HP701", "__pipeline_wait_prior")} <= set(found)
    assert result.stats.refs_unconverted == 0


def test_the_primitives_header_alone_is_replaced_too():
    source = PIPELINE.replace(b"cuda_pipeline.h", b"cuda_pipeline_primitives.h")
    output = convert_source(source, name="k.cu").output
    assert b'#include "hipport_polyfills.h"\n' in output and b"cuda_pipeline" not in output


def test_the_header_holds_the_copy_commit_and_wait():
    header = render(["__pipeline_memcpy_async", "__pipeline_commit"]).decode()
    assert {"__pipeline_memcpy_async", "__pipeline_commit", "__pipeline_wait_prior"} <= \
        covered_names(header.encode())
    assert "void __pipeline_wait_prior(size_t)" in header
    assert "#include <cuda_pipeline.h>" in header  # HIP on NVIDIA keeps CUDA's


def test_look_alikes_stay_as_they_are():
    source = (b'#include "my_cuda_pipeline.h"\n'
              b'const char* s = "__pipeline_commit()"; // __pipeline_wait_prior(0)\n'
              b"void __pipeline_memcpy_async_2d(void* d, const void* s, int n);\n"
              b"namespace mine { void pipeline_commit(); }\n")
    result = convert_source(source, name="k.cu")
    assert result.output == source
    assert not any(f.code.startswith("HP70") for f in result.findings)


def test_without_polyfills_the_include_is_still_a_blocker():
    result = convert_source(PIPELINE, Settings(polyfills=()), name="k.cu")
    assert ("HP901", "cuda_pipeline.h") in _codes(result)
    assert b"#include <cuda_pipeline.h>" in result.output


# ------------------------------------------------ address-space conversions --
CVTA = (b"#include <cuda_runtime.h>\n__global__ void k(unsigned* o) {\n"
        b"  __shared__ int s[64];\n"
        b"  unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);\n"
        b'  asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(1));\n'
        b"  o[0] = a;\n}\n")


def test_a_shared_address_is_emulated_and_the_ptx_it_feeds_stays_a_blocker():
    result = convert_source(CVTA, name="k.cu")
    found = _codes(result)
    assert ("HP701", "__cvta_generic_to_shared") in found
    assert ("HP901", "__cvta_generic_to_shared") not in found
    assert b'#include "hipport_polyfills.h"\n' in result.output
    assert "HP420" in {code for code, _ in found}  # the inline PTX


def test_a_projects_own_cvta_named_function_is_left_alone():
    source = (b"namespace mine { __device__ unsigned cvta_generic_to_shared(const void* p); }\n"
              b"__device__ unsigned f(const int* p) { return mine::cvta_generic_to_shared(p); }\n")
    result = convert_source(source, name="k.cu")
    assert result.output.endswith(source) and b"hipport_polyfills" not in result.output
    assert not any(f.code.startswith("HP70") for f in result.findings)
