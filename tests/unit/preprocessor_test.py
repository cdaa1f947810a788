"""Preprocessor-level conversions (docs/preprocessor.md): the runtime include
a host-only .cu file or a header needs, tests of CUDA header include guards,
and CUDA version tests in #if conditions."""
from __future__ import annotations

import pytest

from hipport.api import convert_source

RUNTIME = "#include <hip/hip_runtime.h>\n"
HOST_ONLY = "#include <cstdio>\n\nint main() {\n    float* p;\n    cudaMalloc(&p, 16);\n}\n"
HEADER = "#pragma once\n\ninline cudaError_t check(cudaError_t e) { return e; }\n"


def _convert(text: str, name: str | None) -> str:
    return convert_source(text, name=name).output.decode()


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("main.cu", HOST_ONLY, RUNTIME + HOST_ONLY.replace("cudaMalloc", "hipMalloc")),
    ("check.h", HEADER, "#pragma once\n" + RUNTIME
     + "\ninline hipError_t check(hipError_t e) { return e; }\n"),
    ("check.cuh", HEADER, "#pragma once\n" + RUNTIME
     + "\ninline hipError_t check(hipError_t e) { return e; }\n"),
    # Kernels need the whole runtime: <hip/hip_runtime_api.h> has no blockIdx.
    ("k.cu", "#include <cuda_runtime_api.h>\n__global__ void k(int* p) { p[blockIdx.x] = 0; }\n",
     RUNTIME + "#include <hip/hip_runtime_api.h>\n"
     "__global__ void k(int* p) { p[blockIdx.x] = 0; }\n"),
])
def test_runtime_include_added_for_runtime_use(name: str, text: str, expected: str):
    result = convert_source(text, name=name)
    assert result.output.decode() == expected
    assert "HP306" in {f.code for f in result.findings}


@pytest.mark.parametrize(("name", "text"), [
    # A .cpp file gets no implicit include from nvcc either.
    ("main.cpp", HOST_ONLY),
    # No name: a snippet, as before.
    (None, HOST_ONLY),
    # Includes the runtime already (after conversion).
    ("main.cu", "#include <cuda_runtime.h>\n" + HOST_ONLY),
    ("main.cu", "#include <cuda_runtime_api.h>\n" + HOST_ONLY),
    # No runtime name at all.
    ("util.h", "#pragma once\ninline int twice(int x) { return 2 * x; }\n"),
    # Only asks whether the runtime is included: adding it would answer yes.
    ("util.h", "#pragma once\n#ifdef __CUDA_RUNTIME_H__\nint f();\n#endif\n"),
    # Host code is served by the runtime API header alone.
    ("h.cpp", "#include <cuda_runtime_api.h>\nvoid h() { cudaDeviceSynchronize(); }\n"),
])
def test_runtime_include_not_added(name: str | None, text: str):
    result = convert_source(text, name=name)
    assert result.output.decode().count("hip_runtime") <= 1
    assert "HP306" not in {f.code for f in result.findings}


KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 1; }\n"


@pytest.mark.parametrize(("text", "expected"), [
    # HIP 5.x's hip_cooperative_groups.h needs hip_runtime.h before it:
    # hip_runtime_api.h is not enough, nor a hip_runtime.h after it.
    ("#include <cuda_runtime_api.h>\n#include <cooperative_groups.h>\n" + KERNEL,
     RUNTIME + "#include <hip/hip_runtime_api.h>\n#include <hip/hip_cooperative_groups.h>\n"
     + KERNEL),
    ("#include <cooperative_groups.h>\n#include <cuda_runtime.h>\n" + KERNEL,
     RUNTIME + "#include <hip/hip_cooperative_groups.h>\n" + RUNTIME + KERNEL),
    ("#pragma once\n#include <cooperative_groups.h>\nint f();\n",
     "#pragma once\n" + RUNTIME + "#include <hip/hip_cooperative_groups.h>\nint f();\n"),
])
def test_runtime_include_before_cooperative_groups(text: str, expected: str):
    result = convert_source(text, name="k.cu")
    assert result.output.decode() == expected
    assert "HP306" in {f.code for f in result.findings}


@pytest.mark.parametrize("text", [
    # The runtime comes first already.
    "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n" + KERNEL,
    "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n" + KERNEL,
])
def test_cooperative_groups_after_the_runtime_unchanged(text: str):
    result = convert_source(text, name="k.cu")
    assert result.output.decode().count("hip/hip_runtime.h") == 1
    assert "HP306" not in {f.code for f in result.findings}


# ------------------------------------------------------------ include guards --
@pytest.mark.parametrize(("before", "after"), [
    ("#ifdef __DRIVER_TYPES_H__\n", "#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H\n"),
    ("#ifndef _CUFFT_H_\n", "#ifndef HIPFFT_H_\n"),
    ("#if defined(CUBLAS_API_H_) && defined(CURAND_H_)\n",
     "#if defined(HIPBLAS_H) && defined(HIPRAND_H_)\n"),
    ("#elif defined CUSOLVER_COMMON_H_\n", "#elif defined HIPSOLVER_H\n"),
    # Not a guard, but defined by cusparse.h only: helper_cuda.h tests it.
    ("#ifdef CUSPARSEAPI\n", "#ifdef hipsparseVersionMajor\n"),
])
def test_guard_test_rewritten(before: str, after: str):
    text = f"#if 0\n{before}int x;\n#endif\n#endif\n"
    if before.startswith("#elif"):
        text = f"#if X\n{before}int x;\n#endif\n"
        expected = f"#if X\n{after}int x;\n#endif\n"
    else:
        expected = text.replace(before, after)
    result = convert_source(text)
    assert result.output.decode() == expected
    assert "HP308" in {f.code for f in result.findings}


@pytest.mark.parametrize("text", [
    # The project's own macro with a CUDA-like name.
    "#ifdef MY_CUDA_RUNTIME_H_\nint x;\n#endif\n",
    "#ifdef CUBLAS_API_H\nint x;\n#endif\n",
    # A project header guarded by a CUDA header's guard name is the project's.
    "#ifndef CUSPARSE_H_\n#define CUSPARSE_H_\nclass CSRMatrix {};\n#endif\n",
    "#ifndef _CUFFT_H_\n#define _CUFFT_H_ 1\n#endif\n#ifdef _CUFFT_H_\nint x;\n#endif\n",
    # Not a test: a string and a comment.
    'const char* s = "__DRIVER_TYPES_H__"; // #ifdef __DRIVER_TYPES_H__\n',
])
def test_guard_look_alikes_unchanged(text: str):
    result = convert_source(text)
    assert result.output.decode() == text
    assert "HP308" not in {f.code for f in result.findings}


def test_guard_of_a_header_the_target_lacks_is_left():
    from hipport.settings import Settings

    # hip/hip_bf16.h is not in ROCm 5.2: the include stays, and so does its test.
    text = "#include <cuda_bf16.h>\n#ifdef __CUDA_BF16_H__\nint x;\n#endif\n"
    result = convert_source(text, Settings(rocm_version=(5, 2)))
    assert b"__CUDA_BF16_H__" in result.output
    assert "HP308" not in {f.code for f in result.findings}
    newer = convert_source(text, Settings(rocm_version=(6, 4))).output.decode()
    assert "#ifdef HIP_INCLUDE_HIP_HIP_BF16_H" in newer


GUARDED = """schema: hipport-mappings/1
library: headers
entries:
  - cuda: x.h
    hip: hip/x.h
    kind: header
    guard: {GUARD}
"""


@pytest.mark.parametrize(("guard", "problem"), [
    ("{cuda: X_H_}", "missing required key 'hip'"),
    ("{cuda: [], hip: HIP_X_H}", "expected a macro name or a list of them"),
    ("{cuda: X_H_, hip: hip/x.h}", "expected a macro name"),
    ("{cuda: X_H_, hip: Y, colour: 1}", "unknown key"),
    ("X_H_", "expected a mapping"),
])
def test_bad_guard_is_a_clear_error(guard: str, problem: str):
    from hipport.errors import MappingFileError
    from hipport.table.yaml_file import parse_mapping_file

    with pytest.raises(MappingFileError, match=problem):
        parse_mapping_file(GUARDED.replace("{GUARD}", guard), "rules.yaml")


def test_guard_only_on_headers():
    from hipport.errors import MappingFileError
    from hipport.table.yaml_file import parse_mapping_file

    text = GUARDED.replace("kind: header", "kind: macro").replace("hip/x.h", "HIP_X") \
        .replace("cuda: x.h", "cuda: X_H")
    with pytest.raises(MappingFileError, match="only a header entry"):
        parse_mapping_file(text.replace("{GUARD}", "{cuda: X_H_, hip: Y}"), "rules.yaml")


def test_guard_parsed():
    from hipport.table.yaml_file import parse_mapping_file

    [entry] = parse_mapping_file(GUARDED.replace("{GUARD}", "{cuda: [X_H_, XAPI], hip: HX}"),
                                 "rules.yaml")
    assert entry.guard == (("X_H_", "XAPI"), "HX")


# ---------------------------------------------------- CUDA version tests --
def _resolved(text: str, version: tuple[int, int] = (12, 0)) -> str:
    from hipport.settings import Settings

    return convert_source(text, Settings(assume_cuda_version=version)).output.decode()


@pytest.mark.parametrize(("line", "expected"), [
    ("#if CUDART_VERSION >= 11020", "#if 1 // CUDA 12.0 assumed: #if CUDART_VERSION >= 11020"),
    ("#if CUDA_VERSION < 11000", "#if 0 // CUDA 12.0 assumed: #if CUDA_VERSION < 11000"),
    ("#ifdef CUDART_VERSION", "#if 1 // CUDA 12.0 assumed: #ifdef CUDART_VERSION"),
    ("#ifndef CUDA_VERSION", "#if 0 // CUDA 12.0 assumed: #ifndef CUDA_VERSION"),
    ("#if __CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 2)",
     "#if 1 // CUDA 12.0 assumed: #if __CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 "
     "&& __CUDACC_VER_MINOR__ >= 2)"),
    # Only the version part of a mixed condition; other macros are renamed as usual.
    ("#if defined(__CUDACC__) && CUDART_VERSION >= 11000 /* new API */",
     "#if defined(__HIPCC__) && 1 /* new API */ // CUDA 12.0 assumed: #if defined(__CUDACC__) "
     "&& CUDART_VERSION >= 11000"),
    ("#if CUDART_VERSION >= MY_MINIMUM",
     "#if 12000 >= MY_MINIMUM // CUDA 12.0 assumed: #if CUDART_VERSION >= MY_MINIMUM"),
])
def test_version_test_resolved(line: str, expected: str):
    text = f"#if 0\n{line}\nint x;\n#endif\n#endif\n"
    result = convert_source(text)
    assert result.output.decode() == text.replace(line, expected)
    assert "HP309" in {f.code for f in result.findings}
    assert "HP901" not in {f.code for f in result.findings}


def test_elif_and_assumed_version():
    text = "#if CUDART_VERSION >= 12000\nint a;\n#elif CUDART_VERSION >= 11000\nint b;\n#endif\n"
    assert _resolved(text, (11, 4)).splitlines()[0::2] == [
        "#if 0 // CUDA 11.4 assumed: #if CUDART_VERSION >= 12000",
        "#elif 1 // CUDA 11.4 assumed: #elif CUDART_VERSION >= 11000", "#endif"]


@pytest.mark.parametrize("text", [
    "#if MY_CUDA_VERSION >= 11000\nint x;\n#endif\n",
    "// #if CUDART_VERSION >= 11000\nint x;\n",
    'const char* s = "#if CUDART_VERSION >= 11000";\n',
    "int v = CUDART_VERSION;\n",  # not a condition: HP901 as before
    # The project defines the macro itself: its tests are the project's.
    "#define CUDA_VERSION 11000\n#if CUDA_VERSION >= 11000\nint x;\n#endif\n",
])
def test_version_look_alikes_unchanged(text: str):
    result = convert_source(text)
    assert result.output.decode() == text
    assert "HP309" not in {f.code for f in result.findings}


def test_unresolvable_version_test_is_reported():
    text = "#if __CUDACC_VER_BUILD__ > 3\nint x;\n#endif\n"
    result = convert_source(text)
    assert result.output.decode() == text
    [finding] = [f for f in result.findings if f.code == "HP901"]
    assert "__CUDACC_VER_BUILD__" in finding.finding.message


@pytest.mark.parametrize(("value", "expected"), [
    ("12.0", (12, 0)), ("11.2", (11, 2)), ("12", (12, 0)), (" 10.1 ", (10, 1)),
])
def test_parse_cuda_version(value: str, expected: tuple[int, int]):
    from hipport.settings import parse_cuda_version

    assert parse_cuda_version(value) == expected


@pytest.mark.parametrize(("value", "message"), [
    ("cuda12.4", "did you mean 12.4?"), ("v11", "did you mean 11.0?"),
    ("12.0.1", "did you mean 12.0?"), ("twelve", "expected a CUDA release such as 12.0"),
    ("11.20", "expected a CUDA release"), ("0.5", "does not exist"),
    ("\u0661\u0662.\u0660", "expected a CUDA release such as 12.0"),  # Arabic-Indic 12.0
])
def test_bad_cuda_version_is_a_clear_error(value: str, message: str):
    from click.testing import CliRunner

    from hipport.cli import cli

    result = CliRunner().invoke(cli, ["convert", "--assume-cuda-version", value, "x.cu"])
    assert result.exit_code == 2
    assert "--assume-cuda-version" in result.output + result.stderr
    assert message in result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr


@pytest.mark.parametrize(("text", "expected"), [
    # Declares threadIdx & co.: hip_runtime.h does, once.
    ('#include "cuda_runtime.h"\n#include "device_launch_parameters.h"\n' + KERNEL,
     '#include "hip/hip_runtime.h"\n' + KERNEL),
    ("#include <device_launch_parameters.h>\n" + KERNEL, RUNTIME + KERNEL),
])
def test_device_launch_parameters_becomes_the_runtime(text: str, expected: str):
    assert convert_source(text, name="k.cu").output.decode() == expected
