"""The compat strategy's edit to a source: the header included, CUDA
toolkit includes hidden from the AMD build, nothing else."""
from __future__ import annotations

from hipport.api import convert_source
from hipport.compat.strategy import CompatStrategy
from hipport.settings import Settings

COMPAT = CompatStrategy()


def compat(text: str, strategy: CompatStrategy = COMPAT) -> str:
    return convert_source(text, strategy=strategy).output.decode()


def test_include_goes_before_the_first_cuda_include_and_they_are_wrapped():
    source = ("#include <cstdio>\n#include <cuda_runtime.h>\n#include <cublas_v2.h>\n\n"
              "void f(void *p) { cudaFree(p); }\n")
    assert compat(source) == (
        '#include <cstdio>\n#include "hip_compat.h"\n#if !defined(__HIP_PLATFORM_AMD__)\n'
        "#include <cuda_runtime.h>\n#include <cublas_v2.h>\n#endif\n\n"
        "void f(void *p) { cudaFree(p); }\n")


def test_changed_lines_are_the_lines_added():
    source = "#include <cuda_runtime.h>\nvoid f(void *p) { cudaFree(p); }\n"
    assert convert_source(source, strategy=COMPAT).stats.changed_lines == 3


def test_second_run_changes_nothing():
    source = "#include <cuda_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n"
    once = compat(source)
    assert once != source
    assert compat(once) == once


def test_the_project_macro_is_used():
    out = compat("#include <cuda.h>\nCUresult r;\n", CompatStrategy(macro="USE_HIP"))
    assert "#if !defined(USE_HIP)\n#include <cuda.h>\n#endif\n" in out


def test_code_without_cuda_is_left_alone():
    source = "#include <vector>\nint cudaLike(int x) { return x; }\n"
    assert compat(source) == source


def test_names_are_not_rewritten_but_count_as_converted():
    result = convert_source("void f(void *p) { cudaFree(p); }\n", strategy=COMPAT)
    assert b"cudaFree(p)" in result.output and b"hipFree" not in result.output
    assert result.stats.refs_converted == 1 and result.stats.refs_unconverted == 0
    assert result.stats.changed_lines == 1  # the include line, added


def test_kernel_file_without_includes_gets_the_header_at_the_top():
    out = compat("// a kernel\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n")
    assert out.startswith('// a kernel\n#include "hip_compat.h"\n')


def test_hazards_are_reported_as_usual():
    result = convert_source("__global__ void k(int *o) { o[0] = threadIdx.x % 32; }\n",
                            strategy=COMPAT)
    assert any(f.code == "HP401" for f in result.findings)
    assert b"% 32" in result.output


def test_an_existing_wrap_is_recognised():
    source = ('#include "hip_compat.h"\n#ifndef __HIP_PLATFORM_AMD__\n#include <cuda.h>\n'
              "#endif\nCUresult r;\n")
    assert compat(source) == source


def test_a_rename_that_needs_review_stays_unconverted():
    source = "#if defined(__NVCC__)\nint x;\n#endif\n__global__ void k() {}\n"
    result = convert_source(source, strategy=COMPAT)
    assert result.stats.refs_unconverted == 1
    assert b"__NVCC__" in result.output
    unsafe = convert_source(source, Settings(unsafe_fixes=True), strategy=COMPAT)
    assert unsafe.stats.refs_unconverted == 0 and b"__NVCC__" in unsafe.output


def test_includes_with_a_trailing_comment_are_wrapped_too():
    # Before: `#include <cuda_fp16.h>  // types` stayed visible to the AMD build
    # (CUDALibrarySamples' cuSPARSE samples: 'cuda_fp16.h' file not found).
    source = ("#include <cuda_fp16.h>  // data types\n#include <cuda_runtime.h> /* rt */\n"
              "void f(void *p) { cudaFree(p); }\n")
    assert compat(source) == (
        '#include "hip_compat.h"\n#if !defined(__HIP_PLATFORM_AMD__)\n'
        "#include <cuda_fp16.h>  // data types\n#include <cuda_runtime.h> /* rt */\n#endif\n"
        "void f(void *p) { cudaFree(p); }\n")


def test_an_include_whose_comment_goes_on_is_not_wrapped():
    # An #endif after the line would land inside the comment (or the spliced line).
    for tail in ("/* a comment\n   that goes on */\n", "// spliced \\\n   on\n"):
        source = "#include <cuda_runtime.h> " + tail + "void f(void *p) { cudaFree(p); }\n"
        assert "#if !defined" not in compat(source), tail


def test_a_first_cuda_include_under_ifdef_does_not_hide_the_header():
    # code-samples' manual_nvtx.cu: nvToolsExt.h only with USE_NVTX, kernels
    # always; the header must be seen by the kernels either way.
    source = ("#include <cstdio>\n\n#ifdef USE_NVTX\n#include <nvtx3/nvToolsExt.h>\n"
              "#endif\n\n__global__ void k(int *p) { p[blockIdx.x] = 0; }\n")
    out = compat(source)
    assert out.startswith('#include "hip_compat.h"\n#include <cstdio>\n\n#ifdef USE_NVTX\n'
                          "#if !defined(__HIP_PLATFORM_AMD__)\n#include <nvtx3/nvToolsExt.h>\n"
                          "#endif\n#endif\n")
    assert compat(out) == out


def test_an_include_guard_is_not_a_condition():
    source = ("#ifndef UTIL_H\n#define UTIL_H\n#include <vector>\n#include <cuda_runtime.h>\n"
              "inline void f(void *p) { cudaFree(p); }\n#endif\n")
    assert compat(source) == (
        '#ifndef UTIL_H\n#define UTIL_H\n#include <vector>\n#include "hip_compat.h"\n'
        "#if !defined(__HIP_PLATFORM_AMD__)\n#include <cuda_runtime.h>\n#endif\n"
        "inline void f(void *p) { cudaFree(p); }\n#endif\n")


def test_an_else_branch_is_a_condition_inside_a_guard_too():
    source = ("#ifndef UTIL_H\n#define UTIL_H\n#if defined(USE_CPU)\n#include <vector>\n#else\n"
              "#include <cuda_runtime.h>\n#endif\n"
              "inline void f(void *p) { cudaFree(p); }\n#endif\n")
    out = compat(source)
    assert out.startswith('#ifndef UTIL_H\n#define UTIL_H\n#include "hip_compat.h"\n#if defined')


def test_a_byte_order_mark_stays_first():
    """A UTF-8 file whose first line is code: the include and the #if go
    after the mark (before it, the mark sat mid-file: HP003, left as it was)."""
    source = b"\xef\xbb\xbf#include <cuda_runtime.h>\nvoid f(void *p) { cudaFree(p); }\n"
    result = convert_source(source, strategy=COMPAT)
    assert result.output == (b'\xef\xbb\xbf#include "hip_compat.h"\n'
                             b"#if !defined(__HIP_PLATFORM_AMD__)\n#include <cuda_runtime.h>\n"
                             b"#endif\nvoid f(void *p) { cudaFree(p); }\n")
    assert {f.code for f in result.findings} == {"HP310", "HP302", "HP101"}
    assert result.stats.refs_converted == 2
    assert convert_source(result.output, strategy=COMPAT).output == result.output
    kernel = b"\xef\xbb\xbf__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
    assert convert_source(kernel, strategy=COMPAT).output == (
        b'\xef\xbb\xbf#include "hip_compat.h"\n' + kernel[3:])
