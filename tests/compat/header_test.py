"""The compat header: generated for exactly the names a tree uses, each
line traced to its catalogue entry, alternatives by HIP_VERSION."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.compat import MARKER
from hipport.compat.header import Uses, covered_names, definition, hip_version, render
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.request import Request
from hipport.table import load_table
from tests.compat.helpers import compat_tree

TABLE = load_table()


def header_for(tmp_path: Path, source: str, name: str = "k.cu", **settings: object) -> str:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / name).write_text(source)
    compat_tree(src, tmp_path / "out", **settings)
    return (tmp_path / "out" / "hip_compat.h").read_text()


def test_maps_exactly_the_names_used(tmp_path: Path):
    text = header_for(tmp_path, "#include <cuda_runtime.h>\n"
                      "void f(float **p) { cudaMalloc(p, 4); cudaFree(*p); }\n")
    assert text.startswith(MARKER.decode())
    assert "#define cudaMalloc hipMalloc  /* mappings/runtime/memory.yaml: cudaMalloc */" in text
    assert "#define cudaFree hipFree" in text
    assert "cudaMemcpy" not in text  # not used
    assert "#include <hip/hip_runtime.h>" in text


def test_names_the_project_declares_are_not_mapped(tmp_path: Path):
    # A look-alike: the project's own cudaMalloc is not CUDA's.
    text = header_for(tmp_path, "int cudaMalloc(void **p, int n) { return n; }\n"
                      "int g(void **p) { return cudaMalloc(p, 4); }\n")
    assert "#define cudaMalloc" not in text


def test_nothing_is_seen_without_the_amd_macro(tmp_path: Path):
    text = header_for(tmp_path, "void f(void *p) { cudaFree(p); }\n", macro="USE_HIP")
    lines = text.splitlines()
    guard = lines.index("#if defined(USE_HIP)")
    first_define = next(i for i, line in enumerate(lines) if line.startswith("#define cuda"))
    assert guard < first_define
    assert lines[guard - 2:guard] == ["#ifndef HIPPORT_HIP_COMPAT_H",
                                      "#define HIPPORT_HIP_COMPAT_H"]


def test_names_without_hip_equivalent_are_listed_not_mapped(tmp_path: Path):
    text = header_for(tmp_path, "__global__ void k() { __prof_trigger(0); }\n")
    assert "#define __prof_trigger" not in text
    miss = text[text.index("The AMD build will miss"):]
    assert "__prof_trigger: unsupported-cuda-api" in miss


def test_rules_become_function_like_macros():
    entries = {e.cuda: e for e in TABLE if e.rule is not None}
    assert definition(entries["__shfl_down_sync"]) == \
        "#define __shfl_down_sync(mask, ...) __shfl_down(__VA_ARGS__)"
    assert definition(entries["cudaMemcpyToSymbol"]) == \
        "#define cudaMemcpyToSymbol(symbol, ...) hipMemcpyToSymbol(HIP_SYMBOL(symbol), " \
        "##__VA_ARGS__)"
    assert definition(entries["cudaMemcpyFromSymbol"]).startswith(
        "#define cudaMemcpyFromSymbol(first, symbol, ...) hipMemcpyFromSymbol(first, "
        "HIP_SYMBOL(symbol)")
    assert definition(entries["__activemask"]) == "#define __activemask() __ballot(1)"
    assert definition(entries["cudnnPoolingForward"]) == \
        "#define cudnnPoolingForward(...) miopenPoolingForward(__VA_ARGS__, false, NULL, 0)"
    # every rule the catalogue names has a macro form, but MIOpen's that read an
    # argument's value (no macro tells CUDNN_TENSOR_NCHW from NHWC) or move
    # arguments (an enumerator the header would not define), and those that
    # read another call of the file (SpSM's analysis buffer): those calls are
    # listed as left
    assert all(definition(e) is not None for e in entries.values()
               if e.hip and e.rule not in BY_VALUE)
    assert {e.rule for e in entries.values() if definition(e) is None} == BY_VALUE


BY_VALUE = {"miopen-tensor-format", "miopen-filter-format", "miopen-convolution-2d",
            "miopen-softmax", "miopen-activation", "miopen-pooling-2d", "miopen-dropout",
            "miopen-workspace-size", "spsm-solve-buffer"}


def test_versioned_entries_get_hip_version_alternatives():
    entry = TABLE.lookup("cudaStreamGetDevice")  # hipStreamGetDevice: ROCm 5.7 on
    assert entry is not None and entry.rocm_added == "5.7"
    text = render(Uses({entry.cuda: entry})).decode()
    assert "#if HIP_VERSION >= 50700000\n#define cudaStreamGetDevice hipStreamGetDevice" in text
    header = TABLE.lookup("cuda_gl_interop.h")  # hip_gl_interop.h from 5.7, older: runtime_api
    assert header is not None and header.older is not None
    text = render(Uses({header.cuda: header})).decode()
    assert ("#if HIP_VERSION >= 50700000\n#if __has_include(<hip/hip_gl_interop.h>)\n"
            "#include <hip/hip_gl_interop.h>  /* mappings/headers.yaml: cuda_gl_interop.h */\n"
            "#endif\n#else\n#if __has_include(<hip/hip_runtime_api.h>)\n"
            "#include <hip/hip_runtime_api.h>") in text
    assert hip_version("6.2") == 60200000


def test_order_is_deterministic_and_grouped_by_library():
    names = ["cublasSgemm", "cudaMalloc", "curandCreateGenerator", "cudaFree"]
    a = render(Uses({n: TABLE.lookup(n) for n in names}))  # type: ignore[misc]
    b = render(Uses({n: TABLE.lookup(n) for n in reversed(names)}))  # type: ignore[misc]
    assert a == b
    text = a.decode()
    assert text.index("/* runtime */") < text.index("/* cublas */") < text.index("/* curand */")
    assert text.index("cudaFree") < text.index("cudaMalloc")
    assert covered_names(a) >= set(names)


def test_regenerated_when_names_come_and_go(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    unit = src / "k.cu"
    unit.write_text("void f(void *p) { cudaFree(p); }\n")
    compat_tree(src, mode=Mode.IN_PLACE)
    first = (src / "hip_compat.h").read_text()
    assert "cudaFree" in first
    results = compat_tree(src, mode=Mode.IN_PLACE)  # idempotent
    assert all(r.outcome is Outcome.UNCHANGED for r in results), results
    assert (src / "hip_compat.h").read_text() == first
    unit.write_text(unit.read_text().replace("cudaFree(p);", "cudaDeviceSynchronize();"))
    compat_tree(src, mode=Mode.IN_PLACE)
    second = (src / "hip_compat.h").read_text()
    assert "cudaDeviceSynchronize" in second and "cudaFree" not in second
    assert unit.read_text().count('#include "hip_compat.h"') == 1


def test_a_header_not_generated_by_hipport_is_never_overwritten(tmp_path: Path):
    from hipport.errors import UsageError

    (tmp_path / "hip_compat.h").write_text("// mine\n")
    (tmp_path / "k.cu").write_text("void f(void *p) { cudaFree(p); }\n")
    with pytest.raises(UsageError, match="not generated by hipport"):
        compat_tree(tmp_path, mode=Mode.IN_PLACE)
    assert (tmp_path / "hip_compat.h").read_text() == "// mine\n"


def test_rewrite_is_still_the_default():
    assert Request(()).strategy.name == "rewrite"
    assert convert_source("cudaFree(p);").output == b"hipFree(p);"


def test_tests_of_cuda_header_guards_keep_their_answer(tmp_path: Path):
    text = header_for(tmp_path, "#include <cublas_v2.h>\n#ifdef CUBLAS_API_H_\nint f();\n#endif\n"
                      "#ifdef MY_CUBLAS_H_\nint g();\n#endif\n")
    assert "#if defined(HIPBLAS_H) && !defined(CUBLAS_API_H_)\n#define CUBLAS_API_H_" in text
    assert text.index("#include <hipblas/hipblas.h>") < text.index("#define CUBLAS_API_H_")
    assert "MY_CUBLAS_H_" not in text  # the project's own macro
    assert "CUBLAS_API_H_: " not in text[text.find("will miss"):]


@pytest.mark.parametrize(("assumed", "value"), [(None, "12000"), ("11.2", "11020")])
def test_cuda_version_tests_answered_for_the_assumed_release(tmp_path: Path, assumed, value):
    from hipport.values import assumed_cuda

    text = header_for(tmp_path, "#include <cuda_runtime.h>\n#if CUDART_VERSION >= 11020\n"
                      "int f();\n#endif\n", assume_cuda_version=assumed_cuda(assumed))
    assert f"#ifndef CUDART_VERSION\n#define CUDART_VERSION {value}" in text


def test_no_version_macros_without_version_tests(tmp_path: Path):
    text = header_for(tmp_path, "void f(void *p) { cudaFree(p); }\n")
    assert "CUDART_VERSION" not in text and "defined(HIPBLAS_H)" not in text


def test_the_header_names_itself_even_with_names_left_over():
    # Before: the loop over the names left reused `name`, so the second line
    # said "* nvtxNameCudaStreamA maps the CUDA names ...".
    text = render(Uses(left={"zzzUnknownName": "unmapped-cuda-api"}), "", "my_compat.h").decode()
    assert text.splitlines()[1] == (" * my_compat.h maps the CUDA names this project uses to HIP "
                                    "for an AMD build;")
    assert " *   zzzUnknownName: unmapped-cuda-api" in text
