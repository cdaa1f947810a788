from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
HIP = b"#include <hip/hip_runtime.h>\nvoid f(float* p) { hipFree(p); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.cu").write_bytes(CUDA)
    (src / "sub" / "b.cuh").write_bytes(b"#pragma once\nint plain(int x);\n")
    (src / "README.txt").write_bytes(b"cudaMalloc in prose stays\n")
    return src


def test_mirror_converts_and_copies(tree: Path, tmp_path: Path):
    out = tmp_path / "out"
    result = run("convert", str(tree), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "a.cu").read_bytes() == HIP
    assert (out / "sub" / "b.cuh").read_bytes() == b"#pragma once\nint plain(int x);\n"
    assert (out / "README.txt").read_bytes() == b"cudaMalloc in prose stays\n"
    assert (tree / "a.cu").read_bytes() == CUDA  # input untouched
    assert "1 file converted, 1 unchanged, 0 failed" in result.stderr


def test_refuses_non_empty_output_without_force(tree: Path, tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = run("convert", str(tree), "-o", str(out))
    assert result.exit_code == 2
    assert "not empty" in result.stderr and "--force" in result.stderr
    assert not (out / "a.cu").exists()
    assert run("convert", str(tree), "-o", str(out), "--force").exit_code == 0
    assert (out / "a.cu").read_bytes() == HIP and (out / "keep.txt").read_text() == "mine"


def test_refuses_output_inside_input(tree: Path):
    result = run("convert", str(tree), "-o", str(tree / "hip"))
    assert result.exit_code == 2 and "inside the input tree" in result.stderr
    assert not (tree / "hip").exists()


def test_in_place_rewrites_only_changed_files(tree: Path):
    untouched = tree / "sub" / "b.cuh"
    before = untouched.stat().st_mtime_ns
    os.chmod(tree / "a.cu", 0o640)
    result = run("convert", str(tree), "--in-place")
    assert result.exit_code == 0, result.output
    assert (tree / "a.cu").read_bytes() == HIP
    assert (tree / "a.cu").stat().st_mode & 0o777 == 0o640
    assert untouched.stat().st_mtime_ns == before
    assert not list(tree.rglob("*.hipport-tmp"))


def test_diff_writes_nothing(tree: Path):
    result = run("convert", str(tree / "a.cu"), "--diff")
    assert result.exit_code == 0
    assert "-void f(float* p) { cudaFree(p); }" in result.stdout
    assert "+void f(float* p) { hipFree(p); }" in result.stdout
    assert (tree / "a.cu").read_bytes() == CUDA


def test_crlf_and_non_utf8_preserved_in_place(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"// \xff\xfe latin-1 caf\xe9\r\nvoid f() { cudaDeviceSynchronize(); }\r\n")
    assert run("convert", str(f), "--in-place").exit_code == 0
    # A host-only .cu file gets the runtime include nvcc gave it implicitly (CRLF too).
    assert f.read_bytes() == (b"// \xff\xfe latin-1 caf\xe9\r\n#include <hip/hip_runtime.h>\r\n"
                              b"void f() { hipDeviceSynchronize(); }\r\n")


def test_strict_exit_code_on_unconverted(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f() { cudaTotallyMadeUpApi(1); }\n")
    result = run("convert", str(f), "--diff", "--strict")
    assert result.exit_code == 1
    assert "HP900" in result.stderr and "cudaTotallyMadeUpApi" in result.stderr
    assert run("convert", str(f), "--diff").exit_code == 0


def test_strict_fails_on_a_dropped_warp_mask_it_lists(tmp_path: Path):
    # Issue 26: the mask is dropped by default (the call compiles on every
    # target only so) and flagged; --strict fails on the flag.
    f = tmp_path / "k.cu"
    f.write_bytes(b"__device__ int f(int v, unsigned m) { return __shfl_down_sync(m, v, 1); }\n")
    result = run("convert", str(f), "--diff", "--strict")
    assert "return __shfl_down(v, 1);" in result.stdout
    assert "HP411" in result.stderr and "the mask `m`" in result.stderr
    assert "--strict" in result.stderr and result.exit_code == 1
    assert run("convert", str(f), "--diff").exit_code == 0


def test_a_rename_to_an_api_the_target_deprecates_is_listed(tmp_path: Path):
    # Issue 26: hipProfilerStart is deprecated in ROCm 6.4 and 7.2 (the default target);
    # the applied rename was listed only with -v, and spoke of the 5.2 headers.
    f = tmp_path / "p.cu"
    f.write_bytes(b"#include <cuda_profiler_api.h>\nvoid f() { cudaProfilerStart(); }\n")
    result = run("convert", str(f), "--diff")
    (line,) = [x for x in result.stderr.splitlines() if "HP902" in x]
    assert "[fixed]" in line and "deprecated in ROCm 7.2, the target" in line
    assert "5.2 headers" not in line
    older = run("convert", str(f), "--diff", "--rocm-version", "5.7")
    assert "deprecated in ROCm 5.7, the target" in older.stderr


def test_an_applied_hazard_fix_is_listed_without_verbose(tmp_path: Path):
    # A removed `case` label (HP512) deletes code: it is listed as [fixed].
    f = tmp_path / "e.cu"
    f.write_bytes(b"int f(cufftResult r) { switch (r) { case CUFFT_NVRTC_FAILURE: return 1; "
                  b"case CUFFT_SUCCESS: return 0; } return 2; }\n")
    result = run("convert", str(f), "--diff")
    assert [x for x in result.stderr.splitlines() if "HP512 [fixed]" in x]
    assert "HP202" not in result.stderr  # a plain rename stays for -v


def test_binary_file_is_skipped_and_batch_goes_on(tree: Path, tmp_path: Path):
    (tree / "blob.cu").write_bytes(b"\x00\x01\x02cudaFree\x00")
    out = tmp_path / "out"
    result = run("convert", str(tree), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert (out / "a.cu").read_bytes() == HIP
    assert (out / "blob.cu").read_bytes() == b"\x00\x01\x02cudaFree\x00"
    assert "HP002" in result.stderr


def test_missing_path_is_a_usage_error(tmp_path: Path):
    result = run("convert", str(tmp_path / "nope"), "--diff")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_conflicting_modes(tree: Path):
    result = run("convert", str(tree), "--diff", "--in-place")
    assert result.exit_code == 2 and "choose one of" in result.stderr


def test_bad_rules_file_names_file_line_and_key(tree: Path, tmp_path: Path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - cuda: cudaFoo\n    hip: hipFoo\n    kind: function\n    colour: red\n")
    result = run("convert", str(tree), "--diff", "--rules", str(rules))
    assert result.exit_code == 2
    assert f"{rules}:7" in result.stderr and "colour" in result.stderr


def test_user_rules_override_catalogue(tmp_path: Path):
    rules = tmp_path / "rules.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - cuda: cudaFree\n    hip: myHipFree\n    kind: function\n")
    f = tmp_path / "k.cu"
    f.write_bytes(b"void f() { cudaFree(p); }\n")
    assert run("convert", str(f), "--in-place", "--rules", str(rules)).exit_code == 0
    assert f.read_bytes() == b"#include <hip/hip_runtime.h>\nvoid f() { myHipFree(p); }\n"


def test_parallel_run_matches_serial(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    for i in range(12):
        (src / f"f{i}.cu").write_bytes(CUDA.replace(b"f(", f"f{i}(".encode()))
    serial, parallel = tmp_path / "s", tmp_path / "p"
    assert run("convert", str(src), "-o", str(serial), "-j", "1").exit_code == 0
    assert run("convert", str(src), "-o", str(parallel), "-j", "2").exit_code == 0
    for f in src.iterdir():
        assert (serial / f.name).read_bytes() == (parallel / f.name).read_bytes() != f.read_bytes()


def test_module_entry_point_and_version():
    out = subprocess.run([sys.executable, "-m", "hipport", "--version"], capture_output=True,
                         text=True, check=True)
    assert out.stdout.startswith("hipport, version ")


def test_explain():
    result = run("explain", "HP901")
    assert result.exit_code == 0 and "unsupported-cuda-api" in result.output
    assert run("explain", "HP999").exit_code == 2
