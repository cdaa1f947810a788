"""Cases only semantic mode gets right, cases where it must agree with syntax
mode, macro spelling locations, and per-file fallback."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hipport.convert import convert_bytes
from hipport.parse.model import Role
from hipport.parse.syntax import SyntaxBackend
from hipport.settings import Settings
from hipport.table import load_table
from tests.semantic.conftest import CASES, make_backend


def refs(analysis, data: bytes) -> list[tuple[str, int]]:
    """(name, line) of every reference."""
    return sorted((r.name, data.count(b"\n", 0, r.start) + 1) for r in analysis.references)


def analyze(backend, names, rel: str, data: bytes | None = None):
    path = CASES / rel
    data = path.read_bytes() if data is None else data
    return backend.analyze(data, names, path), data


def line_of(data: bytes, text: bytes) -> int:
    return data.count(b"\n", 0, data.index(text)) + 1


# -- only semantic mode gets these right ------------------------------------
def test_user_declarations_named_like_cuda_in_another_header(semantic, names):
    result, data = analyze(semantic, names, "shadow_header/main.cu")
    found = {name for name, _ in refs(result, data)}
    assert {"cudaMalloc", "cudaFree", "cudaSuccess"} <= found
    # fakeblas.h is the project's: neither its handle type nor its functions are cuBLAS.
    assert not found & {"cublasHandle_t", "cublasCreate", "cudaLogFailure"}
    syntax = SyntaxBackend().analyze(data, names)
    assert {"cublasHandle_t", "cublasCreate"} <= {r.name for r in syntax.references}
    assert result.diagnostics == []


def test_api_used_only_through_macros_gets_one_reference_in_the_define(semantic, names):
    result, data = analyze(semantic, names, "macros/main.cu")
    by_name = {r.name: r for r in result.references}
    # Each API is referenced once, at its spelling inside the #define body.
    assert sorted(r.name for r in result.references) == sorted(
        ["cudaMalloc", "cudaFree", "cudaMemset", "cudaStreamSynchronize", "cudaGetLastError"])
    assert line_of(data, b"#define ALLOC") == data.count(b"\n", 0, by_name["cudaMalloc"].start) + 1
    assert data[by_name["cudaMalloc"].start:by_name["cudaMalloc"].end] == b"cudaMalloc"
    assert by_name["cudaMalloc"].role is Role.CALL and len(by_name["cudaMalloc"].args) == 2
    # the project's own cudaReportError (wrappers.h) is not CUDA's
    assert "cudaReportError" not in by_name
    hidden = semantic.last_detail.macro_hidden
    assert hidden["cudaMalloc"] == ("ALLOC", 3)
    assert hidden["cudaMemset"] == ("ZERO", 2)  # through ZERO -> ZERO_IMPL
    assert hidden["cudaFree"] == ("RELEASE", 3)


def test_macro_body_is_edited_once_when_converting(semantic):
    table = load_table(())
    path = CASES / "macros/main.cu"
    result = convert_bytes(path.read_bytes(), semantic, table, Settings(), path)
    out = result.output
    assert b"#define ALLOC(p, n) hipMalloc((void**)&(p), (n))" in out
    assert b"#define ZERO_IMPL hipMemset" in out
    assert b"cudaReportError((int)(e))" in out  # the project's function stays
    assert out.count(b"ALLOC(") == path.read_bytes().count(b"ALLOC(")  # uses untouched


def test_using_namespace_and_namespace_scope_wrappers(semantic, names):
    result, data = analyze(semantic, names, "using_namespace/main.cu")
    calls = [(r.name, data.count(b"\n", 0, r.start) + 1) for r in result.references
             if r.name == "cudaGetDeviceCount"]
    # overload resolution: `counter` picks wrap::, `&n` picks CUDA's
    assert calls == [("cudaGetDeviceCount", line_of(data, b"cudaGetDeviceCount(&n)"))]
    assert "cudaFree" not in {r.name for r in result.references}  # pool::cudaFree


def test_typedefs_of_cuda_types_and_look_alike_user_types(semantic, names):
    result, data = analyze(semantic, names, "typedefs/main.cu")
    found = {name for name, _ in refs(result, data)}
    assert {"cudaStream_t", "cudaEvent_t", "cudaStreamCreate", "cudaEventRecord"} <= found
    assert not found & {"cudnnHandle_t", "cusparseHandle_t"}  # mytypes.h is the project's


def test_user_overload_in_same_file_keeps_the_cuda_calls(semantic, names):
    result, data = analyze(semantic, names, "overload/main.cu")
    lines = [line for name, line in refs(result, data) if name == "cudaMalloc"]
    assert lines == [line_of(data, b"cudaMalloc(&b.ptr"), line_of(data, b"cudaMalloc((void**)raw")]
    call = next(r for r in result.references if r.name == "cudaMalloc")
    assert call.role is Role.CALL and [data[s:e] for s, e in call.args] == [b"&b.ptr", b"n"]
    syntax = SyntaxBackend().analyze(data, names)
    assert "cudaMalloc" not in {r.name for r in syntax.references}  # it drops them all


def test_device_only_code_is_read_in_a_device_pass(semantic, names):
    result, data = analyze(semantic, names, "device_only/main.cu")
    assert "__shfl_down_sync" in {r.name for r in result.references}
    assert semantic.last_detail.device_pass
    # inactive in both passes: the syntax result is kept
    assert "cudaThisIsNeverCompiled" in {r.name for r in semantic.last_detail.unresolved}


# -- must agree with syntax mode ---------------------------------------------
AGREE = ["device_only/main.cu", "typedefs/main.cu"]


@pytest.mark.parametrize("rel", AGREE)
def test_agrees_with_syntax_on_spans_roles_and_args(semantic, names, rel):
    data = (CASES / rel).read_bytes()
    syntax = SyntaxBackend().analyze(data, names)
    result = semantic.analyze(data, names, CASES / rel)
    dropped = {(r.start, r.end) for r in semantic.last_detail.dropped}
    expected = sorted((r for r in syntax.references if (r.start, r.end) not in dropped),
                      key=lambda r: r.start)
    assert sorted(result.references, key=lambda r: r.start) == expected
    # block ids are tree node ids, different in every parse
    assert [replace(i, block=0) for i in result.includes] == \
        [replace(i, block=0) for i in syntax.includes]
    assert result.launches == syntax.launches


def test_unsaved_bytes_are_parsed_not_the_file_on_disk(semantic, names):
    path = CASES / "overload/main.cu"
    data = b"#include <cuda_runtime.h>\nvoid g(void** p) { cudaMalloc(p, 4); }\n"
    result = semantic.analyze(data, names, path)
    assert [(r.name, data[r.start:r.end]) for r in result.references] == [
        ("cudaMalloc", b"cudaMalloc")]


# -- fallback ---------------------------------------------------------------
def test_missing_include_falls_back_to_syntax_mode(semantic, names):
    result, data = analyze(semantic, names, "fallback/missing_include.cu")
    assert [d.code for d in result.diagnostics] == ["HP007"]
    assert "not_in_this_project.h" in result.diagnostics[0].message
    assert result.references == SyntaxBackend().analyze(data, names).references


def test_unsupported_flag_falls_back_per_file(names):
    backend = make_backend(extra_args=("-fno-such-flag-for-hipport",))
    path = CASES / "overload/main.cu"
    result = backend.analyze(path.read_bytes(), names, path)
    assert [d.code for d in result.diagnostics] == ["HP007"]


def test_fallback_is_reported_by_the_conversion_and_never_aborts(semantic):
    path = CASES / "fallback/missing_include.cu"
    result = convert_bytes(path.read_bytes(), semantic, load_table(()), Settings(), path)
    assert [f.code for f in result.findings].count("HP007") == 1
    assert b"hipMalloc(&p, 16)" in result.output


def test_compile_commands_flags_choose_the_active_code(tmp_path, names):
    source = tmp_path / "flags.cu"
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "proj.h").write_text("#pragma once\nint cudaProjectHelper(int);\n")
    source.write_text("#include <cuda_runtime.h>\n#include \"proj.h\"\n"
                      "void f(int* p) {\n#ifdef USE_FOO\n  cudaFree(p);\n#endif\n"
                      "  cudaProjectHelper(1);\n}\n")
    db = tmp_path / "compile_commands.json"
    db.write_text(json.dumps([{"directory": str(tmp_path), "file": "flags.cu",
                               "command": "nvcc -Iinc -DUSE_FOO -c flags.cu -o flags.o "
                                          "--generate-code=arch=compute_80,code=sm_80"}]))
    backend = make_backend(compile_commands=str(db))
    result = backend.analyze(source.read_bytes(), names, source)
    assert result.diagnostics == []
    assert [r.name for r in result.references] == ["cudaFree"]  # helper is proj.h's
    assert backend.last_detail.unresolved == []  # USE_FOO is active: clang read it
    without = make_backend()  # no database: proj.h is not found
    result = without.analyze(source.read_bytes(), names, source)
    assert [d.code for d in result.diagnostics] == ["HP007"]


def test_get_backend_rejects_unknown_options():
    from hipport.parse import get_backend
    with pytest.raises(TypeError):
        get_backend("semantic", no_such_option=1)
