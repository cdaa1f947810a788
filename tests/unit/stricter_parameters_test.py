"""Parameters HIP declares stricter than CUDA (`casts:` in mappings/*.yaml,
found by tools/catalogue/signatures.py): the argument gets the cast CUDA's
implicit conversion made; what already converts is left alone."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.errors import MappingFileError
from hipport.settings import Settings
from hipport.table import parse_mapping_file
from tests.compat.helpers import compat_tree
from tests.toolchain import compile_hip
from tools.catalogue.signatures import (
    Stricter,
    Type,
    _marked_unsafe,
    compare,
    mismatch_note,
    parse_type,
    prototypes,
)


def convert(body: str) -> str:
    source = ("#include <nvrtc.h>\n#include <cuda.h>\n#include <cublas_v2.h>\n"
              "void f(nvrtcProgram prog, char** opts, const char* src, CUdeviceptr d,\n"
              "       const float* host, cublasHandle_t h, const float* a, float* b) {\n"
              f"  {body}\n}}\n")
    return convert_source(source).output.decode().split("\n")[5].strip()


@pytest.mark.parametrize("before, after", [
    pytest.param("nvrtcCompileProgram(prog, 2, opts);",
                 "hiprtcCompileProgram(prog, 2, (const char**)opts);", id="nvrtc-options"),
    pytest.param("nvrtcCompileProgram(prog, n, &opts[1]);",
                 "hiprtcCompileProgram(prog, n, (const char**)&opts[1]);", id="element-address"),
    pytest.param("nvrtcCompileProgram(prog, n, c ? opts : more);",
                 "hiprtcCompileProgram(prog, n, (const char**)(c ? opts : more));",
                 id="expression"),
    pytest.param('nvrtcCreateProgram(&prog, src, "k.cu", 1, hdrs, names);',
                 'hiprtcCreateProgram(&prog, src, "k.cu", 1, (const char**)hdrs, '
                 '(const char**)names);', id="nvrtc-headers"),
    pytest.param("cuMemcpyHtoD(d, host, 16);", "hipMemcpyHtoD(d, (void*)host, 16);",
                 id="driver-const-source"),
    pytest.param("cublasStrsm(h, s, u, t, g, 4, 4, a, a, 4, b, 4);",
                 "hipblasStrsm(h, s, u, t, g, 4, 4, a, (float*)a, 4, b, 4);", id="cublas-trsm"),
])
def test_stricter_parameters_are_cast(before: str, after: str) -> None:
    assert convert(before) == after


@pytest.mark.parametrize("before, after", [
    pytest.param("nvrtcCompileProgram(prog, 2, (const char**)opts);",
                 "hiprtcCompileProgram(prog, 2, (const char**)opts);", id="already-cast"),
    pytest.param("nvrtcCompileProgram(prog, 0, NULL);",
                 "hiprtcCompileProgram(prog, 0, NULL);", id="null-pointer"),
    pytest.param("nvrtcCompileProgram(prog, 0, nullptr);",
                 "hiprtcCompileProgram(prog, 0, nullptr);", id="nullptr"),
    pytest.param("myCompileProgram(prog, 2, opts);", "myCompileProgram(prog, 2, opts);",
                 id="own-function"),
    pytest.param('puts("nvrtcCompileProgram(prog, 2, opts)");',
                 'puts("nvrtcCompileProgram(prog, 2, opts)");', id="in-a-string"),
    pytest.param("nvrtcGetProgramLog(prog, log);", "hiprtcGetProgramLog(prog, log);",
                 id="same-signature"),
])
def test_lookalikes_are_left_alone(before: str, after: str) -> None:
    assert convert(before) == after


def test_the_cuda_binary_is_the_code_object_a_module_loads() -> None:
    # hiprtcGetBitcode is LLVM bitcode, which hipModuleLoadData does not take
    assert convert("nvrtcGetCUBIN(prog, b);") == "hiprtcGetCode(prog, b);"


_ENTRY = ("schema: hipport-mappings/1\nlibrary: nvrtc\nentries:\n"
          "  - cuda: nvrtcCompileProgram\n    hip: hiprtcCompileProgram\n"
          "    kind: function\n")


def test_casts_are_read_and_spelled_one_way() -> None:
    [entry] = parse_mapping_file(_ENTRY + "    casts: {2: 'const char *const *'}\n", "x.yaml")
    assert entry.casts == ((2, "const char* const*"),)
    assert entry.rule == "cast-arguments"


@pytest.mark.parametrize("extra, message", [
    ("    casts: {2: 'char**; x'}\n", r"entries\[0\]\.casts\.2: expected a C type"),
    ("    casts: {two: 'char**'}\n", r"casts\.two: expected an argument index"),
    ("    casts: {2: 'char**'}\n    rule: kernel-as-void-pointer\n",
     "only a function entry with a 'hip' name and no other 'rule' has casts"),
])
def test_bad_casts_are_refused_with_their_key(extra: str, message: str) -> None:
    with pytest.raises(MappingFileError, match=message):
        parse_mapping_file(_ENTRY + extra, "x.yaml")


def _type(text: str) -> Type:
    parsed = parse_type(text.replace("*", " * ").split())
    assert parsed is not None
    return parsed


@pytest.mark.parametrize("cuda, hip, verdict", [
    ("const char* const* options", "const char** options", True),
    ("const void* src", "void* src", True),
    ("unsigned long* flags", "unsigned long long* flags", True),  # same bits on LP64
    ("char* log", "char* log", None),
    ("char* name", "const char* name", None),  # HIP takes more: nothing to do
    ("char** names", "const char* const* names", None),
    ("hipEvent_t e", "hipEvent_t", None),
    ("unsigned int flags", "int flags", None),  # integers convert
    ("size_t* n", "int* n", False),  # another width: no cast keeps the value
    ("int mode", "hipTextureFilterMode mode", False),  # an enum: CUDA's number may differ
])
def test_the_catalogue_tells_a_cast_from_a_report(cuda: str, hip: str,
                                                  verdict: bool | None) -> None:
    found = compare(_type(cuda), _type(hip))
    assert (None if found is None else found[0]) is verdict


def test_prototypes_are_read_from_header_text() -> None:
    header = """
    #define nvrtcCompile nvrtcCompile_v2
    typedef struct _nvrtcProgram *nvrtcProgram;
    extern "C" {
    nvrtcResult nvrtcCompile_v2(nvrtcProgram prog, int numOptions,
                                const char * const *options);  /* the C form */
    static inline int helper(int x) { return x; }
    }
    """
    [proto] = prototypes(header)["nvrtcCompile_v2"]
    assert [t.spelled() if t else None for t in proto] == \
        ["nvrtcProgram", "int", "const char* const*"]
    assert "helper" in prototypes(header)


NVRTC = """\
#include <nvrtc.h>
#include <stdio.h>
int build(const char* src) {
  nvrtcProgram prog;
  const char* headers[1] = {"#pragma once\\n"};
  const char* names[1] = {"mine.h"};
  nvrtcCreateProgram(&prog, src, "k.cu", 1, headers, names);
  char* opts[1] = {(char*)"-default-device"};
  nvrtcResult r = nvrtcCompileProgram(prog, 1, opts);
  size_t n = 0;
  nvrtcGetCUBINSize(prog, &n);
  printf("%s %zu\\n", nvrtcGetErrorString(r), n);
  return nvrtcDestroyProgram(&prog);
}
"""


def test_compat_macros_cast_the_same_arguments(tmp_path: Path, hip_oracle) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "rtc.cu").write_text(NVRTC)
    out = tmp_path / "out"
    compat_tree(src, out)
    header = (out / "hip_compat.h").read_text()
    assert "#define nvrtcCompileProgram(a0, a1, a2, ...) hiprtcCompileProgram(a0, a1, " \
        "(const char**)(a2), ##__VA_ARGS__)" in header
    proc = compile_hip(out / "rtc.cu", oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_parameter_no_cast_fits_makes_the_rename_unsafe() -> None:
    source = "#include <cuda.h>\nvoid f(CUdeviceptr d, CUcontext a, CUdeviceptr s, " \
             "CUcontext b) {\n  cuMemcpyPeer(d, a, s, b, 16);\n}\n"
    result = convert_source(source)
    assert "  cuMemcpyPeer(d, a, s, b, 16);" in result.output.decode()
    [finding] = [f.finding for f in result.findings if f.code == "HP904"]
    assert "hipMemcpyPeer declares argument 2 as `int` where CUDA's is `CUcontext`" \
        in finding.message
    forced = convert_source(source, Settings(unsafe_fixes=True)).output.decode()
    assert "  hipMemcpyPeer(d, a, s, b, 16);" in forced


def test_the_catalogue_tool_keeps_a_hand_written_note() -> None:
    note = mismatch_note([Stricter("cuX", "hipX", "driver", 1, "CUcontext", "int", False, "")])
    block = "  hip: hipX\n  kind: function\n  note: mine\n  cuda_version:\n    added: '9.0'\n"
    marked = _marked_unsafe(block, note)
    assert marked == ("  hip: hipX\n  kind: function\n  cuda_version:\n    added: '9.0'\n"
                      "  applicability: unsafe\n  note: \"mine; hipX declares argument 2 as "
                      "`int` where CUDA's is `CUcontext`: no cast keeps the meaning, convert "
                      "the call by hand\"\n")
    assert _marked_unsafe(marked, note) == marked  # a second run changes nothing
