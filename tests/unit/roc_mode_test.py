"""`--roc`: the catalogue's roc targets (rocBLAS, rocRAND) instead of the
hip* wrappers, in sources and build files; the default mode is untouched."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.buildfiles import convert_build_file
from hipport.errors import MappingFileError
from hipport.libraries import parse_library_table
from hipport.settings import Settings
from hipport.table import load_table, parse_mapping_file
from hipport.table.roc import for_roc

ROC = Settings(roc=True)
# A user's rules file: one entry with a roc name, one with a roc mapping,
# one with only a hip name (a gap with --roc), one whose roc side has none.
RULES = """\
schema: hipport-mappings/1
library: cublas
entries:
  - cuda: cublasCreate_v2
    hip: hipblasCreate
    kind: function
    roc: rocblas_create_handle
  - cuda: cublasGemmEx
    hip: hipblasGemmEx
    kind: function
    roc:
      name: rocblas_gemm_ex
      applicability: unsafe
      note: rocblas_gemm_ex also takes the output matrix D, a solution index and flags
  - cuda: cublasSgemm_v2
    hip: hipblasSgemm
    kind: function
  - cuda: cublasGetSmCountTarget
    hip: hipblasGetSmCountTarget
    kind: function
    roc:
      status: unsupported
      note: rocBLAS does not limit the compute units it uses
"""


@pytest.fixture
def table(tmp_path: Path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    return load_table([rules])


def _convert(text: str, table, settings: Settings = ROC):
    result = convert_source(text, settings, table.in_mode(settings.roc))
    return result.output.decode(), [(f.code, f.finding.message) for f in result.findings]


def test_a_roc_name_replaces_the_hip_one(table):
    out, findings = _convert("cublasCreate_v2(&h);\n", table)
    assert out == "rocblas_create_handle(&h);\n"
    assert findings[0][0] == "HP201"


def test_the_default_mode_keeps_the_hip_name(table):
    out, _ = _convert("cublasCreate_v2(&h);\n", table, Settings())
    assert out == "hipblasCreate(&h);\n"


def test_a_call_that_differs_beyond_the_name_is_left_with_what_to_do(table):
    out, findings = _convert("cublasGemmEx(h, a, b);\n", table)
    assert out == "cublasGemmEx(h, a, b);\n"
    assert findings == [("HP904", "`cublasGemmEx` -> `rocblas_gemm_ex`: rocblas_gemm_ex also "
                         "takes the output matrix D, a solution index and flags")]
    out, _ = _convert("cublasGemmEx(h, a, b);\n", table, Settings(roc=True, unsafe_fixes=True))
    assert out == "rocblas_gemm_ex(h, a, b);\n"


def test_a_name_with_only_a_hip_target_is_a_finding_not_the_wrapper_name(table):
    out, findings = _convert("cublasSgemm_v2(h);\n", table)
    assert out == "cublasSgemm_v2(h);\n"
    assert findings == [("HP901", "`cublasSgemm_v2` has no rocBLAS counterpart (--roc): hipBLAS "
                         "has `hipblasSgemm` (convert without --roc for it)")]


def test_a_roc_side_without_counterpart_says_why(table):
    out, findings = _convert("cublasGetSmCountTarget(h, &n);\n", table)
    assert out == "cublasGetSmCountTarget(h, &n);\n"
    assert findings == [("HP901", "`cublasGetSmCountTarget` has no rocBLAS counterpart (--roc): "
                         "rocBLAS does not limit the compute units it uses")]


def test_libraries_without_a_roc_counterpart_convert_as_always():
    table = load_table()
    text = "#include <cufft.h>\ncufftHandle p; cudaMalloc(&d, n);\n"
    assert _convert(text, table) == _convert(text, table, Settings())


def test_a_lookalike_of_a_roc_name_stays(table):
    text = "int my_cublasCreate_v2 = 0; obj.cublasCreate_v2x();\n"
    assert _convert(text, table)[0] == text


def test_the_roc_view_changes_only_the_roc_libraries():
    table = load_table()
    roc = table.in_mode(True)
    assert table.in_mode(False) is table and roc is table.in_mode(True)
    changed = {name for name, row in table.rows.items() if roc.rows[name] != row}
    assert changed and {roc.lookup(n).library for n in changed} <= {"cublas", "curand", "cusparse",
                                                                    "cusolver"}
    assert roc.digest != table.digest


@pytest.mark.parametrize("entry, message", [
    pytest.param("  - {cuda: cufftPlan1d, hip: hipfftPlan1d, kind: function, roc: x}\n",
                 r"entries\[0\]\.roc: the cufft library has no --roc counterpart",
                 id="library-without-roc"),
    pytest.param("  - {cuda: cublasA, hip: hipblasA, kind: function, roc: {status: unsupported, "
                 "name: x}}\n", r"entries\[0\]\.roc: status unsupported takes no 'name'",
                 id="unsupported-with-name"),
    pytest.param("  - {cuda: cublasA, hip: hipblasA, kind: function, roc: {note: n}}\n",
                 r"entries\[0\]\.roc: status supported needs a 'name'", id="no-name"),
    pytest.param("  - {cuda: cublasA, hip: hipblasA, kind: function, roc: \"a b\"}\n",
                 r"entries\[0\]\.roc\.name: expected a C/C\+\+ name", id="not-a-name"),
    pytest.param("  - {cuda: cublasA, hip: hipblasA, kind: function, roc: {name: x, "
                 "colour: red}}\n", r"entries\[0\]\.roc\.colour: unknown key", id="unknown-key"),
    pytest.param("  - {cuda: cublasA.h, hip: a.h, kind: header, roc: {name: r.h, guard: R_H}}\n",
                 r"entries\[0\]\.roc\.guard: the entry has no guard", id="guard-without-cuda"),
])
def test_a_bad_roc_mapping_is_refused_with_its_key_path(entry: str, message: str):
    library = "cufft" if "cufft" in entry else "cublas"
    text = f"schema: hipport-mappings/1\nlibrary: {library}\nentries:\n{entry}"
    with pytest.raises(MappingFileError, match=message):
        parse_mapping_file(text, "rules.yaml")


def test_a_header_gets_the_roc_header_and_its_guard():
    table = load_table().in_mode(True)
    text = "#include <cublas_v2.h>\n#ifdef CUBLAS_V2_H_\nint x;\n#endif\n"
    out = convert_source(text, ROC, table).output.decode()
    assert out == "#include <rocblas/rocblas.h>\n#ifdef ROCBLAS_H\nint x;\n#endif\n"
    # The same text in the default mode: hipBLAS.
    out = convert_source(text, Settings()).output.decode()
    assert out == "#include <hipblas/hipblas.h>\n#ifdef HIPBLAS_H\nint x;\n#endif\n"


def test_for_roc_of_an_entry_without_a_hip_name_is_the_entry():
    entry = load_table().lookup("CUBLAS_API_H_")
    assert entry is not None and for_roc(entry) is entry


# ------------------------------------------------------------ build files --
def _build(text: str, kind: str, roc: bool) -> str:
    return convert_build_file(text.encode(), kind, Settings(roc=roc)).output.decode()


@pytest.mark.parametrize("before, roc_after, hip_after", [
    pytest.param("find_package(CUDAToolkit REQUIRED)\n"
                 "target_link_libraries(t PRIVATE CUDA::cublas CUDA::curand CUDA::cufft)\n",
                 "find_package(hip REQUIRED)\nfind_package(hipfft REQUIRED)\n"
                 "find_package(rocblas REQUIRED)\nfind_package(rocrand REQUIRED)\n"
                 "target_link_libraries(t PRIVATE roc::rocblas roc::rocrand hip::hipfft)\n",
                 "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                 "find_package(hipfft REQUIRED)\nfind_package(hiprand REQUIRED)\n"
                 "target_link_libraries(t PRIVATE roc::hipblas hip::hiprand hip::hipfft)\n",
                 id="cmake-targets"),
    pytest.param("find_package(CUDAToolkit REQUIRED)\ntarget_link_libraries(t cublas curand)\n",
                 "find_package(hip REQUIRED)\nfind_package(rocblas REQUIRED)\n"
                 "find_package(rocrand REQUIRED)\n"
                 "target_link_libraries(t roc::rocblas roc::rocrand)\n",
                 "find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                 "find_package(hiprand REQUIRED)\n"
                 "target_link_libraries(t roc::hipblas hip::hiprand)\n",
                 id="cmake-link-names"),
])
def test_cmake_links_the_roc_libraries(before: str, roc_after: str, hip_after: str):
    assert _build(before, "cmake", True) == roc_after
    assert _build(before, "cmake", False) == hip_after


def test_make_links_the_roc_libraries():
    text = "LDLIBS = -lcublas -lcurand -lcufft\n"
    assert _build(text, "make", True) == "LDLIBS = -lrocblas -lrocrand -lhipfft\n"
    assert _build(text, "make", False) == "LDLIBS = -lhipblas -lhiprand -lhipfft\n"


def test_a_library_lookalike_stays_in_both_modes():
    text = "LDLIBS = -lcublasfoo -lmycurand\n"
    assert _build(text, "make", True) == _build(text, "make", False) == text


_GOOD_ROCM = ("  hip: {name: HIP, rocm_package: hip, cmake_target: hip::host}\n"
              "  hipblas: {name: hipBLAS, rocm_package: hipblas, cmake_target: roc::hipblas}\n")


@pytest.mark.parametrize("cublas, message", [
    pytest.param("{code: HP201, rocm: hipblas, roc: nothere}",
                 r"cuda\.cublas\.roc: 'nothere' is not a key of rocm", id="unknown-roc-key"),
    pytest.param("{code: HP201, rocm: hipblas, roc: hip2, link: [cublas]}",
                 r"cuda\.cublas\.roc: build files name it, so rocm\.hip2 needs a cmake_target",
                 id="linked-without-target"),
])
def test_a_bad_roc_key_of_the_library_table_is_refused(cublas: str, message: str):
    text = (f"schema: hipport-libraries/1\ncuda:\n  cublas: {cublas}\nrocm:\n{_GOOD_ROCM}"
            "  hip2: {name: X, rocm_package: x}\n")
    with pytest.raises(MappingFileError, match=message):
        parse_library_table(text, "t.yaml")
