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
])
def test_runtime_include_not_added(name: str | None, text: str):
    result = convert_source(text, name=name)
    assert result.output.decode().count("hip_runtime") <= 1
    assert "HP306" not in {f.code for f in result.findings}
