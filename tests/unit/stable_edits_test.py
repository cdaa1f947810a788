"""Which conversions skip the second pass, and why each other kind does not."""
from __future__ import annotations

import pytest

from hipport.convert import allowed, collect_findings
from hipport.edits import Edit, apply_fixes
from hipport.parse.syntax import SyntaxBackend
from hipport.settings import Settings
from hipport.stable_edits import needs_second_pass
from hipport.table import MappingTable, load_table
from hipport.table.schema import Mapping

TABLE = load_table()
BACKEND = SyntaxBackend()


def conversion_edits(source: bytes, table: MappingTable = TABLE,
                     settings: Settings = Settings()) -> tuple[bool, bytes]:
    """(needs a second pass, output) for the edits hipport itself makes."""
    first = collect_findings(source, BACKEND, table, settings)
    fixes = [f.fix for f in first.findings if f.fix is not None and allowed(f.fix, settings)]
    applied = apply_fixes(source, fixes)
    edits = sorted(e for fix in applied.applied for e in fix.edits)
    return needs_second_pass(source, first.analysis, edits, table), applied.data


@pytest.mark.parametrize("source", [
    pytest.param(b"void f(float** p) { cudaMalloc(p, 4); cudaFree(*p); }\n", id="renames"),
    pytest.param(b"#include <cuda_runtime.h>\ncudaStream_t s;\n", id="include-path"),
    pytest.param(b'#include "cublas_v2.h"\ncublasHandle_t h;\n', id="quoted-include"),
    pytest.param(b"#include <cuda_runtime.h>\r\n#include <cuda.h>\r\nint x;\r\n",
                 id="duplicate-crlf"),
    pytest.param(b"// kernel\n__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); }\n",
                 id="runtime-include-inserted"),
    pytest.param(b"#define ALLOC(p) cudaMalloc(p, 4)\nvoid f(void** p) { ALLOC(p); }\n",
                 id="macro-body"),
])
def test_token_swaps_skip_the_second_pass(source: bytes):
    again, output = conversion_edits(source)
    assert output != source
    assert not again


@pytest.mark.parametrize("source, settings", [
    pytest.param(b"void f(int* h) { cudaMemcpyToSymbol(sym, h, 4); }\n", Settings(),
                 id="argument-rewrite"),
    pytest.param(b"__global__ void k(float v) { v = __shfl_down_sync(0xffffffff, v, 1); }\n",
                 Settings(), id="mask-dropped"),
    pytest.param(b"__global__ void k() {}\nvoid f() { k<<<1, 1>>>(); }\n",
                 Settings(launch_syntax="hip"), id="launch-rewrite"),
    pytest.param(b"void f() { cudaMalloc(&p, 4); int x = ; }\n", Settings(),
                 id="parse-errors-before"),
])
def test_other_edits_take_the_second_pass(source: bytes, settings: Settings):
    again, output = conversion_edits(source, settings=settings)
    assert output != source
    assert again


def test_a_target_the_catalogue_rewrites_again_takes_the_second_pass():
    # A user rule sending cudaMalloc to another CUDA name would be rewritten again.
    table = load_table()
    chained = MappingTable({"cudaMalloc": Mapping("cudaMalloc", "cudaFree", "function", "runtime")},
                           rows=dict(table.rows))
    again, _ = conversion_edits(b"void f() { cudaMalloc(&p, 4); }\n", chained)
    assert again


def analysis_of(source: bytes):
    return BACKEND.analyze(source, TABLE.candidates)


@pytest.mark.parametrize("source, edit", [
    pytest.param(b"int cudaMalloc2;\n", Edit(4, 14, b"hipMalloc"), id="part-of-a-word"),
    pytest.param(b"int x = cudaFoo;\n", Edit(8, 15, b"sizeof"), id="keyword-swapped-in"),
    pytest.param(b"int x = 32;\n", Edit(8, 10, b"warpSize"), id="literal-to-name"),
    pytest.param(b"#include <a.h>\nint x;\n", Edit(7, 7, b"#include <hip/hip_runtime.h>\n"),
                 id="insert-mid-line"),
    pytest.param(b"#define A \\\nint x;\n", Edit(12, 12, b"#include <hip/hip_runtime.h>\n"),
                 id="insert-after-continuation"),
    pytest.param(b"int x;\nint y;\n", Edit(0, 7, b""), id="delete-code-line"),
    pytest.param(b'const char* s = "cuda.h";\n', Edit(17, 23, b"hip.h)"), id="path-breaking-out"),
])
def test_look_alike_edits_are_not_trusted(source: bytes, edit: Edit):
    assert needs_second_pass(source, analysis_of(source), [edit], TABLE)


def test_runtime_include_only_trusted_at_the_front_ends_insertion_point():
    source = b"#include <a.h>\n__global__ void k() {}\n"
    analysis = analysis_of(source)
    at = analysis.include_insertion
    assert at == 0
    line = b"#include <hip/hip_runtime.h>\n"
    assert not needs_second_pass(source, analysis, [Edit(at, at, line)], TABLE)
    later = source.index(b"__global__")  # a line start, but not the insertion point
    assert needs_second_pass(source, analysis, [Edit(later, later, line)], TABLE)


@pytest.mark.parametrize("data, offset, expected", [
    (b"int x;\nint y;\n", 7, True),
    (b"int x;\r\nint y;\n", 8, True),
    (b"#define A \\\nint x;\n", 12, False),  # continues the directive above
    (b"#define A \\\r\nint x;\n", 13, False),
    (b"int x;\nint y;\n", 3, False),  # mid-line
])
def test_line_starts_exclude_continuations(data: bytes, offset: int, expected: bool):
    from hipport.stable_edits import _at_line_start

    assert _at_line_start(data, offset) is expected
