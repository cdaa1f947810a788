"""What NVRTC programs keep in strings: option literals (HP314 fixed, HP315
reported or fixed with --unsafe-fixes) and kernel sources (HP316)."""
from __future__ import annotations

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

HEAD = "#include <nvrtc.h>\n#include <string.h>\n"


def convert(body: str, **settings: object) -> tuple[str, list[tuple[str, str]]]:
    result = convert_source(HEAD + body, Settings(**settings))  # type: ignore[arg-type]
    found = [(f.code, f.finding.message) for f in result.findings if f.code in ("HP314", "HP315",
                                                                       "HP316")]
    return "\n".join(result.output.decode().splitlines()[2:]), found


@pytest.mark.parametrize("before, after", [
    pytest.param('const char* o[] = {"--fmad=false"};', 'const char* o[] = {"-ffp-contract=off"};',
                 id="fmad"),
    pytest.param('char* o[] = {(char*)"--use_fast_math"};', 'char* o[] = {(char*)"-ffast-math"};',
                 id="cast-literal"),
    pytest.param('v.push_back("-lineinfo");', 'v.push_back("-gline-tables-only");',
                 id="push-back"),
    pytest.param('o[2] = "--include-path=/opt/inc";', 'o[2] = "-I/opt/inc";', id="prefix"),
    pytest.param('const char* o[] = {"-G", "--ftz=true"};',
                 'const char* o[] = {"-g", "-fgpu-flush-denormals-to-zero"};', id="two"),
])
def test_options_with_a_clang_spelling_are_replaced(before: str, after: str) -> None:
    out, found = convert(before)
    assert out.strip() == after
    assert {code for code, _ in found} == {"HP314"}


@pytest.mark.parametrize("option", ["--gpu-architecture=compute_80", "-arch=sm_90a",
                                    "-arch=compute_75", "--gpu-architecture=sm_80"])
def test_an_architecture_is_pinned_only_with_unsafe_fixes(option: str) -> None:
    body = f'const char* o[] = {{"{option}"}};'
    out, found = convert(body)
    assert out.strip() == body
    [(code, message)] = found
    assert code == "HP315" and "--offload-arch=gfx90a" in message
    out, _ = convert(body, unsafe_fixes=True, offload_arch=("gfx942",))
    assert out.strip() == 'const char* o[] = {"--offload-arch=gfx942"};'


@pytest.mark.parametrize("option, says", [
    ("-default-device", "mark the functions the kernels call `__device__`"),
    ("--ptxas-options=-v", "PTX assembler options"),
    ("-arch", "the next string"),
])
def test_options_without_a_hiprtc_meaning_are_reported(option: str, says: str) -> None:
    body = f'const char* o[] = {{"{option}"}};'
    out, found = convert(body, unsafe_fixes=True)
    assert out.strip() == body
    [(code, message)] = found
    assert code == "HP315" and says in message


@pytest.mark.parametrize("body", [
    pytest.param('if (strcmp(argv[1], "-G") == 0) return;', id="compared"),
    pytest.param('puts("--fmad=false");', id="printed"),
    pytest.param('const char* o[] = {"-std=c++17", "-DN=4", "-Iinclude"};', id="same-in-clang"),
    pytest.param('const char* o[] = {"--fmad=false\\n"};', id="escaped"),
])
def test_lookalikes_stay(body: str) -> None:
    out, found = convert(body, unsafe_fixes=True)
    assert out.strip() == body and found == []


def test_options_outside_an_nvrtc_file_stay() -> None:
    source = 'const char* o[] = {"--fmad=false", "-arch=sm_80"};\n'
    result = convert_source(source)
    assert result.output.decode() == source
    assert not [f for f in result.findings if f.code in ("HP314", "HP315")]


SOURCE = '''static const char* kSrc = R"(
#include <cuda_fp16.h>
__global__ void k(float* x) { x[threadIdx.x] = __activemask(); }
)";
void f(nvrtcProgram* p) { nvrtcCreateProgram(p, kSrc, "k.cu", 0, NULL, NULL); }
'''


def test_a_source_literal_names_what_hiprtc_lacks() -> None:
    out, found = convert(SOURCE)
    [(code, message)] = found
    assert code == "HP316"
    assert "<cuda_fp16.h> -> <hip/hip_fp16.h>" in message
    assert "`__activemask` -> `__ballot` (its arguments change too" in message
    assert "threadIdx" not in message  # hipRTC declares it
    assert "#include <cuda_fp16.h>" in out  # the fix is unsafe


def test_the_unsafe_fix_renames_inside_the_literal() -> None:
    out, _ = convert(SOURCE.replace("__activemask()", "__ldg(x)").replace(
        "R\"(\n", "R\"(\ncudaStream_t s;\n"), unsafe_fixes=True)
    assert "#include <hip/hip_fp16.h>" in out and "hipStream_t s;" in out


def test_an_escape_is_not_part_of_a_name() -> None:
    out, found = convert('void f(nvrtcProgram* p) {\n  nvrtcCreateProgram(p, "\\ncudaStream_t s;",'
                         ' "k.cu", 0, NULL, NULL);\n}\n', unsafe_fixes=True)
    assert '"\\nhipStream_t s;"' in out
    assert [code for code, _ in found] == ["HP316"]


def test_a_source_read_at_run_time_is_named() -> None:
    _, found = convert('void f(nvrtcProgram* p, const char* text) {\n'
                       '  nvrtcCreateProgram(p, text, "kernels/scan.cu", 0, NULL, NULL);\n}\n')
    [(code, message)] = found
    assert code == "HP316" and '"kernels/scan.cu"' in message and "`text`" in message


def test_a_source_with_only_hip_names_is_fine() -> None:
    _, found = convert('void f(nvrtcProgram* p) {\n  nvrtcCreateProgram(p, "__global__ void k('
                       'int* x) { x[threadIdx.x] = 1; }", "k.cu", 0, NULL, NULL);\n}\n')
    assert found == []
