"""ROCm 7's hip_runtime.h no longer includes <stdio.h>, <string.h>, <assert.h>
and <thread>; nvcc's implicit cuda_runtime.h does: a .cu file that used them
gets the include (HP319) when the target is ROCm 7 or newer."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

ROCM_7 = Settings(rocm_version=(7, 2))
ROCM_6 = Settings(rocm_version=(6, 4))

FIXES = [
    pytest.param("#include <cuda_runtime.h>\n__global__ void k() { printf(\"%d\\n\", 1); }\n",
                 "#include <hip/hip_runtime.h>\n#include <stdio.h>\n"
                 "__global__ void k() { printf(\"%d\\n\", 1); }\n", "k.cu", id="after-the-include"),
    pytest.param("__global__ void k() { printf(\"hi\\n\"); }\n",
                 "#include <hip/hip_runtime.h>\n#include <stdio.h>\n"
                 "__global__ void k() { printf(\"hi\\n\"); }\n", "k.cu",
                 id="with-the-runtime-include"),
    pytest.param("#include <cuda_runtime.h>\n#include <vector>\n"
                 "void f(char* p) { memcpy(p, p + 1, 1); assert(p); std::thread t(f, p); }\n",
                 "#include <hip/hip_runtime.h>\n#include <vector>\n#include <string.h>\n"
                 "#include <assert.h>\n#include <thread>\n"
                 "void f(char* p) { memcpy(p, p + 1, 1); assert(p); std::thread t(f, p); }\n",
                 "k.cu", id="after-the-last-include"),
    pytest.param("#include <cuda_runtime.h>\r\nvoid f() { std::printf(\"x\"); }\r\n",
                 "#include <hip/hip_runtime.h>\r\n#include <stdio.h>\r\n"
                 "void f() { std::printf(\"x\"); }\r\n",
                 "k.cu", id="crlf-and-std-qualified"),
    pytest.param("#pragma once\n#include <cuda_runtime.h>\n"
                 "__device__ void d() { printf(\"x\"); }\n",
                 "#pragma once\n#include <hip/hip_runtime.h>\n#include <stdio.h>\n"
                 "__device__ void d() { printf(\"x\"); }\n", "d.cuh", id="cuda-header"),
]


@pytest.mark.parametrize(("before", "after", "name"), FIXES)
def test_rewrite(before, after, name):
    result = convert_source(before, ROCM_7, name=name)
    assert result.output.decode() == after
    assert "HP319" in {f.code for f in result.findings}


NOOPS = [
    pytest.param("#include <cuda_runtime.h>\n#include <cstdio>\nvoid f() { printf(\"x\"); }\n",
                 "k.cu", id="included-as-cstdio"),
    pytest.param("#include <cuda_runtime.h>\nstruct L { void printf(const char*); };\n"
                 "void f(L l, L* p) { l.printf(\"x\"); p->printf(\"y\"); }\n", "k.cu",
                 id="member-functions"),
    pytest.param("#include <cuda_runtime.h>\nvoid f() { mylib::printf(\"x\"); }\n", "k.cu",
                 id="user-namespace"),
    pytest.param("#include <cuda_runtime.h>\nvoid f() { static_assert(true, \"\"); "
                 "puts_all(); }\n// printf in a comment\nconst char* s = \"memcpy\";\n", "k.cu",
                 id="look-alike-words"),
    pytest.param("#include <cuda_runtime.h>\n#define assert(x) check(x)\n"
                 "void f(int* p) { assert(p); }\n", "k.cu", id="own-assert-macro"),
    pytest.param("#include <cuda_runtime.h>\nvoid f() { printf(\"x\"); }\n", "host.cpp",
                 id="cpp-file-was-never-given-it"),
]


@pytest.mark.parametrize(("source", "name"), NOOPS)
def test_unchanged(source, name):
    result = convert_source(source, ROCM_7, name=name)
    assert "HP319" not in {f.code for f in result.findings}
    assert b"#include <stdio.h>" not in result.output


def test_rocm_6_still_includes_them():
    # ROCm 6.4's hip_runtime.h includes <stdio.h>, <assert.h> and <thread>:
    # nothing to add for a 6.x target.
    source = "#include <cuda_runtime.h>\nvoid f() { printf(\"x\"); }\n"
    result = convert_source(source, ROCM_6, name="k.cu")
    assert result.output == b"#include <hip/hip_runtime.h>\nvoid f() { printf(\"x\"); }\n"


def test_a_cpp_file_converts_stably_for_rocm_7(tmp_path):
    # The stability pass converts the output again with no file name: a
    # .cpp file that calls printf got <stdio.h> there ("converting twice is
    # not stable", HP004, file left unchanged).
    from click.testing import CliRunner

    from hipport.cli import cli

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.cpp").write_text(
        "#include <cuda.h>\nint main() { printf(\"x\"); cuInit(0); return 0; }\n")
    result = CliRunner().invoke(cli, ["convert", str(tmp_path / "src"), "-o",
                                      str(tmp_path / "out"), "--rocm-version", "7.2"])
    assert "HP004" not in result.output, result.output
    assert (tmp_path / "out" / "main.cpp").read_text() == \
        "#include <hip/hip_runtime.h>\nint main() { printf(\"x\"); hipInit(0); return 0; }\n"


# cuBLAS's API header includes <cuda_fp16.h> and <cuda_bf16.h>; hipblas.h
# includes neither (in every ROCm): `half` stopped the converted file.
@pytest.mark.parametrize("settings", [ROCM_7, ROCM_6], ids=["rocm-7.2", "rocm-6.4"])
def test_half_types_cublas_gave_get_their_hip_header(settings):
    before = ("#include <cublas_v2.h>\n#include <cstdio>\n"
              "int main() { half* a; __nv_bfloat16* b; return sizeof(half) + sizeof(*b); }\n")
    out = convert_source(before, settings, name="gemm.cpp")
    assert out.output.decode() == (
        "#include <hipblas/hipblas.h>\n#include <cstdio>\n#include <hip/hip_fp16.h>\n"
        "#include <hip/hip_bf16.h>\n"
        "int main() { half* a; __hip_bfloat16* b; return sizeof(half) + sizeof(*b); }\n")
    messages = [f.finding.message for f in out.findings if f.code == "HP319"]
    assert messages == ["`half` without #include <hip/hip_fp16.h>: added (cuBLAS's header "
                        "includes its CUDA counterpart, hipBLAS's does not); `__nv_bfloat16` "
                        "without #include <hip/hip_bf16.h>: added (cuBLAS's header includes its "
                        "CUDA counterpart, hipBLAS's does not)"]


@pytest.mark.parametrize("text", [
    pytest.param("#include <cuda_fp16.h>\nhalf h;\n", id="no-cublas-include"),
    pytest.param("#include <cublas_v2.h>\n#include <cuda_fp16.h>\nhalf h;\n",
                 id="includes-it-itself"),
    pytest.param("#include <cublas_v2.h>\ntypedef unsigned short half;\nhalf h;\n",
                 id="its-own-half"),
    pytest.param("#include <cublas_v2.h>\nstruct S { int half; };\nint f(S s) { return s.half; }\n",
                 id="a-member-named-half"),
    pytest.param("#include <cublas_v2.h>\nint halfway = 1;\n// half of it\n", id="words"),
    pytest.param("#include <cublas_v2.h>\nvoid f(float half, int __half);\n",
                 id="parameters-named-half"),
])
def test_half_look_alikes_get_no_header(text):
    out = convert_source(text, ROCM_7, name="gemm.cpp")
    assert out.output.count(b"hip_fp16.h") == text.count("cuda_fp16.h")
    assert not [f for f in out.findings if f.code == "HP319"]


def test_no_bfloat16_header_for_a_rocm_without_one():
    text = "#include <cublas_v2.h>\nint f(__nv_bfloat16* b, half* h);\n"
    out = convert_source(text, Settings(rocm_version=(5, 2)), name="gemm.cpp").output
    assert b"<hip/hip_bf16.h>" not in out and b"#include <hip/hip_fp16.h>\n" in out
