"""Bad inputs: each gets a conversion of its clean parts or a finding, never a
traceback, and the bytes hipport does not edit come out exactly as they went in."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.cli import cli
from hipport.parse.syntax import SyntaxBackend


def run(*args: str):
    return CliRunner().invoke(cli, ["convert", *args, "-j", "1"], catch_exceptions=False)


def codes(source: bytes) -> set[str]:
    return {f.code for f in convert_source(source).findings}


# name -> (input, expected output, codes that must be reported)
CASES = {
    "latin-1 comment": (b"// caf\xe9\nvoid f() { cudaFree(p); }\n",
                        b"// caf\xe9\nvoid f() { hipFree(p); }\n", set()),
    "mixed utf-8 and latin-1": (
        "// café\n".encode() + b"// caf\xe9 \x80\xff\nvoid f() { cudaFree(p); }\n",
        "// café\n".encode() + b"// caf\xe9 \x80\xff\nvoid f() { hipFree(p); }\n", set()),
    "invalid utf-8 in a string": (b'const char* s = "\xc3\x28";\nvoid f() { cudaFree(p); }\n',
                                  b'const char* s = "\xc3\x28";\nvoid f() { hipFree(p); }\n',
                                  set()),
    "BOM": (b"\xef\xbb\xbfvoid f() { cudaFree(p); }\n",
            b"\xef\xbb\xbfvoid f() { hipFree(p); }\n", set()),
    "CRLF": (b"#include <cuda.h>\r\nvoid f() { cudaFree(p); }\r\n",
             b"#include <hip/hip_runtime.h>\r\nvoid f() { hipFree(p); }\r\n", set()),
    "no final newline": (b"void f() { cudaFree(p); }", b"void f() { hipFree(p); }", set()),
    # Past the error the parser guesses; renames there are best effort (the
    # compiler rejects that part either way) and the error is reported.
    "unterminated comment": (b"void f() { cudaFree(p); }\n/* cudaMalloc(&q, 1);\n",
                             b"void f() { hipFree(p); }\n/* hipMalloc(&q, 1);\n", {"HP001"}),
    "unterminated string": (b'void f() { cudaFree(p); }\nconst char* s = "cudaMalloc\n',
                            b'void f() { hipFree(p); }\nconst char* s = "cudaMalloc\n',
                            {"HP001"}),
    "syntax the grammar cannot read": (
        b"void f() { cudaFree(p); }\n@@@ ### $$$ cudaMalloc(\n",
        b"void f() { hipFree(p); }\n@@@ ### $$$ hipMalloc(\n", {"HP001"}),
    "NUL bytes (binary)": (b"\x7fELF\x00\x00cudaFree", b"\x7fELF\x00\x00cudaFree", {"HP002"}),
    "UTF-16 text": ("void f() { cudaFree(p); }\n".encode("utf-16"),
                    "void f() { cudaFree(p); }\n".encode("utf-16"), {"HP002"}),
    "empty file": (b"", b"", set()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input(name: str):
    source, expected, must = CASES[name]
    result = convert_source(source)
    assert result.output == expected
    assert must <= {f.code for f in result.findings}


def test_lone_cr_line_endings_are_kept_byte_for_byte():
    # Classic Mac line ends: the grammar (like `//`) reads the file as fewer
    # lines; hipport converts what it can see and never touches the CRs.
    source = b"void f() { cudaFree(p); }\r// note\rvoid g() { cudaFree(q); }\r"
    result = convert_source(source)
    assert result.output.count(b"\r") == 3 and b"\n" not in result.output
    assert result.output.replace(b"hipFree", b"cudaFree") == source
    assert b"hipFree(p)" in result.output


def test_findings_on_a_very_long_line_have_exact_columns_quickly():
    line = b"void f() { " + b"cudaFree(p); " * 20_000 + b"}\n"
    start = time.monotonic()
    result = convert_source(b"// \xc3\xa9\n" + line)
    assert time.monotonic() - start < 30
    located = [f for f in result.findings if f.finding.cuda_name == "cudaFree"]
    assert len(located) == 20_000
    assert located[-1].location.line == 2
    assert located[-1].location.column == 1 + len(b"void f() { ") + 13 * 19_999
    assert result.output == b"// \xc3\xa9\n" + line.replace(b"cudaFree", b"hipFree")


def test_deeply_nested_preprocessor_and_scopes():
    depth = 5000
    source = (b"#ifdef A\n" * depth + b"void f() { cudaFree(p); }\n" + b"#endif\n" * depth
              + b"void g() " + b"{" * depth + b"cudaFree(q);" + b"}" * depth + b"\n"
              + b"#define M " + b"(" * depth + b"cudaFree(r)" + b")" * depth + b"\n")
    result = convert_source(source)
    assert result.output.count(b"hipFree") == 3 and b"cudaFree" not in result.output


def test_deeply_qualified_kernel_name_does_not_exhaust_recursion():
    # Regression: `_has_template_arguments` recursed once per `::`.
    source = b"void f() { " + b"ns::" * 5000 + b"k<int><<<1, 1>>>(p); cudaFree(p); }\n"
    result = convert_source(source)
    assert "HP006" not in {f.code for f in result.findings}
    assert b"hipFree(p)" in result.output


def test_conversion_never_adds_parse_errors_to_broken_input():
    backend = SyntaxBackend()
    for source, _, _ in CASES.values():
        assert backend.error_count(convert_source(source).output) <= backend.error_count(source)


# ~2 MB: converted whole, in bounded time. Its time and memory at 5-50 MB
# are benchmarks/bigfile.py's to measure (docs/performance.md), not a test's.
@pytest.mark.parametrize("units, limit", [pytest.param(14_000, 60, marks=pytest.mark.slow)])
def test_large_file_is_converted_in_linear_time(tmp_path: Path, units: int, limit: float):
    unit = (b"__global__ void k%d(float* p) { p[threadIdx.x] = 0; }\n"
            b"void h%d(float* d) { k%d<<<1, 64>>>(d); cudaDeviceSynchronize(); cudaFree(d); }\n")
    data = b"#include <cuda_runtime.h>\n" + b"".join(unit % (i, i, i) for i in range(units))
    f = tmp_path / "big.cu"
    f.write_bytes(data)
    start = time.monotonic()
    result = run(str(f), "--in-place", "-q", "--no-cache")
    took = time.monotonic() - start
    assert result.exit_code == 0, result.output
    out = f.read_bytes()
    assert out.count(b"hipFree(d)") == units and b"cuda" not in out
    assert took < limit, f"{len(data) / 1e6:.1f} MB took {took:.1f}s"


def test_binary_file_with_a_source_suffix_is_skipped_in_place(tmp_path: Path):
    blob = tmp_path / "kernel.cu"
    blob.write_bytes(b"\x00\x01cudaFree\x00" * 100)
    result = run(str(tmp_path), "--in-place")
    assert result.exit_code == 0
    assert "HP002" in result.stderr and blob.read_bytes() == b"\x00\x01cudaFree\x00" * 100


def test_deep_bitwise_chain_of_votes_does_not_exhaust_recursion():
    # Regression: the lane-mask hazard's `is_vote` recursed once per `&`.
    chain = b"m & " * 1500 + b"m"
    source = (b"__global__ void k(int x) { unsigned m = __ballot_sync(0xffffffff, x);\n"
              b"  unsigned v = " + chain + b"; cudaFree(0); }\n")
    result = convert_source(source)
    assert "HP006" not in {f.code for f in result.findings}
    assert b"hipFree(0)" in result.output
