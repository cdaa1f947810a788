"""Compat on part of a tree: one file, or a subfolder, converted on its own
updates the tree's header (the names it maps are kept, never dropped), and a
subfolder converted before its tree ends with one header, not two with the
same include guard.  The slow test compiles the result with each HIP
compiler."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hipport.compat import GUARD, MARKER
from hipport.compat.header import covered_names, read_uses, render
from hipport.compat.strategy import CompatStrategy
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.pipeline import run
from hipport.request import Request
from hipport.table import load_table
from tests.compat.helpers import compat_tree
from tests.toolchain import compile_hip

COMPAT_STRATEGY = CompatStrategy()

A = ('#include <cuda_runtime.h>\n#include "sub/common.cuh"\n'
     "void a(float **p) { cudaMalloc(p, 4); }\n")
COMMON = "#pragma once\n#include <cuda_runtime.h>\ncudaError_t checked(void);\n"
K = ('#include "common.cuh"\n'
     "cudaError_t checked(void) { return cudaDeviceSynchronize(); }\n")


def convert(*paths: Path, mode: Mode = Mode.IN_PLACE) -> list:
    request = Request(tuple(paths), mode, cache=False, jobs=1, strategy=COMPAT_STRATEGY)
    return run(request).results


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.cu").write_text(A)
    (src / "sub" / "common.cuh").write_text(COMMON)
    (src / "sub" / "k.cu").write_text(K)
    return src


def names(header: Path) -> set[str]:
    return covered_names(header.read_bytes())


def guards(tree: Path) -> list[Path]:
    """The files that define the compat header's include guard."""
    return sorted(p for p in tree.rglob("*.h") if f"#define {GUARD}\n" in p.read_text())


def test_one_file_converted_keeps_the_names_of_the_others(tree: Path):
    convert(tree)
    whole = names(tree / "hip_compat.h")
    assert {"cudaMalloc", "cudaError_t", "cudaDeviceSynchronize"} <= whole
    (tree / "b.cu").write_text("void b(void *p) { cudaFreeHost(p); }\n")
    convert(tree / "b.cu")
    assert names(tree / "hip_compat.h") == whole | {"cudaFreeHost"}
    assert (tree / "b.cu").read_text().startswith('#include "hip_compat.h"\n')
    # Converting it again, or any other file, changes nothing.
    results = convert(tree / "b.cu") + convert(tree / "a.cu")
    assert all(r.outcome is Outcome.UNCHANGED for r in results), results


def test_a_subfolder_converted_after_its_tree_uses_the_trees_header(tree: Path):
    convert(tree)
    (tree / "sub" / "new.cu").write_text("void n(void *p) { cudaFreeHost(p); }\n")
    convert(tree / "sub")
    assert not (tree / "sub" / "hip_compat.h").exists()
    assert "cudaFreeHost" in names(tree / "hip_compat.h")
    assert "cudaMalloc" in names(tree / "hip_compat.h")  # a.cu's, outside the subfolder
    assert (tree / "sub" / "new.cu").read_text().startswith('#include "../hip_compat.h"\n')


def test_a_subfolder_converted_before_its_tree_forwards_to_the_trees_header(tree: Path):
    convert(tree / "sub")
    assert guards(tree) == [tree / "sub" / "hip_compat.h"]
    results = convert(tree)
    assert guards(tree) == [tree / "hip_compat.h"]
    forwarder = (tree / "sub" / "hip_compat.h").read_bytes()
    assert forwarder.startswith(MARKER)
    assert b'\n#include "../hip_compat.h"' in forwarder
    assert {"cudaMalloc", "cudaError_t", "cudaDeviceSynchronize"} <= names(tree / "hip_compat.h")
    converted = {Path(r.display).resolve() for r in results if r.outcome is Outcome.CONVERTED}
    assert {tree / "hip_compat.h", tree / "sub" / "hip_compat.h"} <= converted
    # Both are current now: a second run, of the tree or the subfolder, changes nothing.
    again = convert(tree) + convert(tree / "sub")
    assert all(r.outcome is Outcome.UNCHANGED for r in again), again


def test_one_file_converted_after_a_subfolder_forwards_the_subfolders_header(tree: Path):
    convert(tree / "sub")
    convert(tree / "a.cu")
    assert guards(tree) == [tree / "hip_compat.h"]
    assert {"cudaMalloc", "cudaError_t"} <= names(tree / "hip_compat.h")
    assert b'\n#include "../hip_compat.h"' in (tree / "sub" / "hip_compat.h").read_bytes()


def test_the_diff_of_a_partial_run_shows_the_names_kept(tree: Path):
    convert(tree)
    (tree / "b.cu").write_text("void b(void *p) { cudaFreeHost(p); }\n")
    results = convert(tree / "b.cu", mode=Mode.DIFF)
    diff = next(r.diff for r in results if r.display.endswith("hip_compat.h"))
    assert "+#define cudaFreeHost hipHostFree" in diff
    assert "-#define cudaMalloc" not in diff


def test_the_whole_tree_still_drops_names_no_longer_used(tree: Path):
    convert(tree)
    (tree / "a.cu").write_text(A.replace("cudaMalloc(p, 4);", ""))
    convert(tree)
    assert "cudaMalloc" not in names(tree / "hip_compat.h")


# What a header can say beside plain renames: a name with no HIP
# equivalent, one unknown, a rename that needs review, a header with no HIP
# counterpart, a hazard's rename, launch bounds, a guard and a version test.
EVERYTHING = """#include <cuda_runtime.h>
#include <cudaProfiler.h>
#include <builtin_types.h>
#include <cublas_v2.h>
#ifdef CUBLAS_API_H_
#endif
#if CUDART_VERSION >= 11020
#endif
__global__ void __launch_bounds__(256, 2) k(int *o) { o[0] = 1; }
int f(cudaLaunchConfig_t *cfg, cudaDeviceProp *prop) {
  int n = 0;
  cudaOccupancyMaxActiveClusters(&n, k, cfg);
  cudaSomethingNew(&n);
#ifdef __NVCC__
#endif
  return n + prop->sharedMemPerMultiprocessor;
}
"""


@pytest.mark.parametrize("source", ["examples", "tests/cases", "everything"])
def test_the_header_reads_back_as_it_was_written(tmp_path: Path, source: str):
    """What the union starts from: a header read back and rendered again is
    the same text."""
    repo = Path(__file__).resolve().parents[2]
    trees = sorted(p for p in (repo / "examples").iterdir() if p.is_dir()) \
        if source == "examples" else [repo / source]
    if source == "everything":
        trees = [tmp_path / "everything"]
        trees[0].mkdir()
        (trees[0] / "e.cu").write_text(EVERYTHING)
    table = load_table()
    for tree in trees:
        out = tmp_path / "out" / tree.name
        compat_tree(tree, out)
        text = (out / "hip_compat.h").read_bytes()
        assert render(read_uses(text, table), name="hip_compat.h") == text, tree.name
    if source == "everything":
        for said in ("guard: CUBLAS_API_H_", "version: CUDART_VERSION", "launch bounds",
                     "sharedMemPerMultiprocessor", " *   builtin_types.h",
                     " *   cudaOccupancyMaxActiveClusters", " *   cudaSomethingNew",
                     " *   __NVCC__"):
            assert said in text.decode(), said


def test_partial_conversions_compile(tree: Path, hip_oracle):
    """The issue's case: the subfolder first, then one file, then the tree;
    every translation unit compiles at each step."""
    def compiles() -> None:
        for unit in sorted(tree.rglob("*.cu")):
            proc = compile_hip(unit, oracle=hip_oracle)
            assert proc.returncode == 0, f"{unit.name}:\n{proc.stderr[-3000:]}"

    convert(tree / "sub")
    convert(tree / "a.cu")
    compiles()
    convert(tree)
    compiles()
    (tree / "sub" / "k.cu").write_text(K + "void more(void *p) { cudaFreeHost(p); }\n")
    convert(tree / "sub" / "k.cu")
    compiles()
