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


HIP_COMPLEX = ("#ifndef ROCM_MATHLIBS_API_USE_HIP_COMPLEX\n"
               "#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX\n#endif\n")


def test_a_header_gets_the_roc_header_and_its_guard():
    table = load_table().in_mode(True)
    text = "#include <cublas_v2.h>\n#ifdef CUBLAS_V2_H_\nint x;\n#endif\n"
    out = convert_source(text, ROC, table).output.decode()
    assert out == (HIP_COMPLEX + "#include <rocblas/rocblas.h>\n#ifdef ROCBLAS_H\nint x;\n"
                   "#endif\n")
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


# ------------------------------------------------- the bundled catalogue --
def _roc(text: str, **settings) -> tuple[str, list[tuple[str, str]]]:
    settings = {"roc": True, **settings}
    result = convert_source(text, Settings(**settings), name="t.cpp")
    return result.output.decode(), [(f.code, f.finding.message) for f in result.findings]


@pytest.mark.parametrize("before, after", [
    pytest.param("cublasHandle_t h; cublasCreate(&h); cublasDestroy(h);",
                 "rocblas_handle h; rocblas_create_handle(&h); rocblas_destroy_handle(h);",
                 id="handle"),
    pytest.param("cublasStatus_t s = cublasSetStream(h, st); s != CUBLAS_STATUS_SUCCESS;",
                 "rocblas_status s = rocblas_set_stream(h, st); s != rocblas_status_success;",
                 id="status-and-stream"),
    pytest.param("cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);",
                 "rocblas_set_pointer_mode(h, rocblas_pointer_mode_device);", id="pointer-mode"),
    pytest.param("cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_C, m, n, k, &a, A, m, B, k, &b, C, m);",
                 "rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_conjugate_transpose, "
                 "m, n, k, &a, A, m, B, k, &b, C, m);", id="sgemm"),
    pytest.param("cublasDgemm_v2(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &a, A, m, B, k, &b, C, m);",
                 "rocblas_dgemm(h, rocblas_operation_transpose, rocblas_operation_none, "
                 "m, n, k, &a, A, m, B, k, &b, C, m);", id="v2-name"),
    pytest.param("cublasSsymm_64(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, m, n, &a, A, m, B, "
                 "m, &b, C, m);", "rocblas_ssymm_64(h, rocblas_side_left, rocblas_fill_upper, m, "
                 "n, &a, A, m, B, m, &b, C, m);", id="64-bit-index-convention"),
    pytest.param("cublasSetWorkspace(h, ws, bytes);", "rocblas_set_workspace(h, ws, bytes);",
                 id="workspace"),
    pytest.param("curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW);",
                 "rocrand_generator g; rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_XORWOW);",
                 id="rand-host"),
    pytest.param("curandSetPseudoRandomGeneratorSeed(g, 1); curandGenerateNormal(g, p, n, 0, 1);",
                 "rocrand_set_seed(g, 1); rocrand_generate_normal(g, p, n, 0, 1);",
                 id="rand-seed-and-normal"),
    pytest.param("curandState s; curand_init(1, id, 0, &s); float x = curand_uniform(&s);",
                 "rocrand_state_xorwow s; rocrand_init(1, id, 0, &s); "
                 "float x = rocrand_uniform(&s);", id="rand-device"),
    pytest.param("curandStatePhilox4_32_10_t s; uint4 v = curand4(&s);",
                 "rocrand_state_philox4x32_10 s; uint4 v = rocrand4(&s);", id="rand-philox"),
])
def test_bundled_roc_renames(before: str, after: str):
    out, findings = _roc(before + "\n")
    assert out == after + "\n", findings


@pytest.mark.parametrize("text", [
    pytest.param("int my_cublasCreate = 0; obj.cublasCreate(&h); ns::cublasSgemm();",
                 id="blas-lookalikes"),
    pytest.param('const char* s = "cublasSgemm"; // cublasSgemm(h)\n', id="blas-string-comment"),
    pytest.param("int curand_initial = 0; obj.curand_uniform(); Xcurand(&s);",
                 id="rand-lookalikes"),
    pytest.param('#include "my_cublas_v2.h"\n#include <curand_kernel_extra.hpp>\n',
                 id="header-lookalikes"),
])
def test_lookalikes_stay_with_roc(text: str):
    assert _roc(text)[0] == text


@pytest.mark.parametrize("before, after", [
    ("#include <curand_kernel.h>\n#ifdef CURAND_KERNEL_H_\n#endif\n",
     "#include <rocrand/rocrand_kernel.h>\n#ifdef ROCRAND_KERNEL_H_\n#endif\n"),
    ("#include <curand.h>\n#include <curand_normal.h>\n",
     "#include <rocrand/rocrand.h>\n#include <rocrand/rocrand_normal.h>\n"),
    ("#include <cublas_api.h>\n", HIP_COMPLEX + "#include <rocblas/rocblas.h>\n"),
])
def test_roc_headers_and_guards(before: str, after: str):
    assert _roc(before)[0] == after


def test_gemm_ex_is_left_with_what_to_change():
    text = ("cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a, A, CUDA_R_32F, m, B, "
            "CUDA_R_32F, k, &b, C, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n")
    out, findings = _roc(text)
    assert out.startswith("cublasGemmEx(h, rocblas_operation_none")
    (code, message), = [f for f in findings if "cublasGemmEx" in f[1]]
    assert code == "HP904" and "rocblas_gemm_ex also takes the output matrix D" in message
    out, _ = _roc(text, unsafe_fixes=True)
    assert out.startswith("rocblas_gemm_ex(h, rocblas_operation_none")


def test_complex_routines_are_renamed_with_hip_complex_types():
    text = ("// blas\n#include <cuComplex.h>\n  #include <cublas_v2.h>\n"
            "#include <cublas_api.h>\n"
            "cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, a, A, m, B, k, b, C, m);\n")
    out, findings = _roc(text)
    assert out == ("// blas\n#include <hip/hip_complex.h>\n"
                   "#ifndef ROCM_MATHLIBS_API_USE_HIP_COMPLEX\n"
                   "#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX\n#endif\n"
                   "  #include <rocblas/rocblas.h>\n"  # the macro once, before the first
                   "rocblas_cgemm(h, rocblas_operation_none, rocblas_operation_none, m, n, k, "
                   "a, A, m, B, k, b, C, m);\n"), findings
    assert not [code for code, _ in findings if code == "HP904"]


def test_the_hip_complex_macro_is_written_only_before_a_rocblas_include():
    crlf = "#include <rocsolver/x.h>\r\n#include <cusolverDn.h>\r\n"
    out = _roc(crlf)[0]  # rocSOLVER includes rocblas.h, so it takes the macro too
    assert out == ("#include <rocsolver/x.h>\r\n#ifndef ROCM_MATHLIBS_API_USE_HIP_COMPLEX\r\n"
                   "#define ROCM_MATHLIBS_API_USE_HIP_COMPLEX\r\n#endif\r\n"
                   "#include <rocsolver/rocsolver.h>\r\n")
    for text in ("#include <cublas_v2.h>\n", "#include <curand.h>\n#include <cufft.h>\n"):
        for settings in (Settings(), Settings(roc=True)):
            out = convert_source(text, settings, name="t.cpp").output.decode()
            assert ("ROCM_MATHLIBS" in out) == (settings.roc and "cublas" in text), out


def test_the_hip_complex_macro_goes_above_an_include_with_a_comment_after_it():
    out = _roc("#include <cublas_v2.h>  // BLAS\n")[0]
    assert out == HIP_COMPLEX + "#include <rocblas/rocblas.h>  // BLAS\n"
    # A comment before the directive: its line is not the directive's alone.
    out = _roc("/* BLAS */ #include <cublas_v2.h>\n")[0]
    assert out == "/* BLAS */ #include <rocblas/rocblas.h>\n"


def test_a_lapack_routine_points_to_rocsolver():
    out, findings = _roc("cublasSgetrfBatched(h, n, A, n, piv, info, batch);\n")
    assert out.startswith("cublasSgetrfBatched(")
    assert findings == [("HP901", "`cublasSgetrfBatched` has no rocBLAS counterpart (--roc): "
                         "rocBLAS has no LAPACK routines: rocSOLVER has rocsolver_sgetrf_batched "
                         "(librocsolver, rocsolver/rocsolver.h), which takes the pivots and infos "
                         "as rocblas_int arrays")]


def test_roc_names_are_withheld_from_releases_without_them():
    out, findings = _roc("cublasCreate(&h);\n", rocm_version=(5, 2))
    assert out == "cublasCreate(&h);\n"
    assert [code for code, _ in findings] == ["HP905"]


def test_cufft_stays_hipfft_with_roc():
    text = "#include <cufft.h>\ncufftHandle p; cufftPlan1d(&p, n, CUFFT_C2C, 1);\n"
    assert _roc(text)[0] == convert_source(text, Settings(), name="t.cpp").output.decode()
    assert "hipfftPlan1d" in _roc(text)[0]


# ------------------------------------------------------------ the commands --
def _cli(*args: str):
    from click.testing import CliRunner

    from hipport.cli import cli
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_convert_report_and_check_take_roc(tmp_path: Path):
    source = tmp_path / "a.cu"
    source.write_text("#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasDestroy(h); }\n"
                      "void g(cublasHandle_t h) { cublasSgetrfBatched(h, 1, 0, 1, 0, 0, 1); }\n")
    diff = _cli("convert", "--roc", "--diff", str(source))
    assert "+void f(rocblas_handle h) { rocblas_destroy_handle(h); }" in diff.stdout
    report = _cli("report", "--roc", "-f", "json", str(source))
    assert '"roc": "on"' in report.stdout and "rocsolver_sgetrf_batched" in report.stdout
    assert "rocsolver" not in _cli("report", "-f", "json", str(source)).stdout
    check = _cli("check", "--roc", str(source))
    assert check.exit_code == 1 and "HP901" in check.output and "rocSOLVER" in check.output
    assert _cli("check", str(source)).exit_code == 0


def test_mappings_show_and_list_give_the_roc_target():
    shown = _cli("mappings", "show", "cublasSgemm_v2", "cublasCgemm_v2")
    assert "  --roc: rocblas_sgemm; supported; ROCm added 6.4" in shown.output
    assert "  --roc: rocblas_cgemm; supported; ROCm added 6.4" in shown.output
    listed = _cli("mappings", "list", "--roc", "--library", "curand")
    assert "curandCreateGenerator\trocrand_create_generator\tfunction\tcurand\tsupported" \
        in listed.output
