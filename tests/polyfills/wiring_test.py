"""The polyfill header in a conversion: included where the uses are, written
once per tree with what the tree uses, never over a file hipport did not
write; with --strategy compat, inside hip_compat.h."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.cli import cli
from hipport.polyfills import MARKER, covered_names
from hipport.settings import Settings
from hipport.table.versions import parse_target

LDLU = b"__global__ void k(int4* p, int4* q) { *q = __ldlu(p); }\n"
SYNC = b"#include <cuda_runtime.h>\n__global__ void s(int* p) { p[0] = 1; __syncwarp(); }\n"
PLAIN = b"#include <cuda_runtime.h>\n__global__ void z(float* p) { p[0] = 0; }\n"


def run(*args: str):
    return CliRunner().invoke(cli, ["convert", *args, "-j", "1", "--no-cache"],
                              catch_exceptions=False)


def codes(result) -> list[str]:
    return [f.code for f in result.findings]


def test_a_use_includes_the_header_after_the_runtime_include():
    result = convert_source(b"#include <cuda_runtime.h>\n#include <cstdio>\n" + LDLU,
                            name="k.cu")
    assert result.output.startswith(b'#include <hip/hip_runtime.h>\n#include '
                                    b'"hipport_polyfills.h"\n#include <cstdio>\n')
    assert {"HP702", "HP707"} <= set(codes(result))
    assert result.stats.refs_unconverted == 0


def test_the_runtime_include_it_needs_and_the_header_come_together():
    result = convert_source(LDLU, name="k.cu")
    assert result.output == (b'#include <hip/hip_runtime.h>\n#include "hipport_polyfills.h"\n'
                             + LDLU)
    assert "HP005" not in codes(result)  # one insertion, not two at one place


def test_a_file_that_includes_it_already_gets_no_second_include():
    once = convert_source(LDLU, name="k.cu").output
    again = convert_source(once, name="k.cu")
    assert again.output == once
    assert again.stats.refs_unconverted == 0


@pytest.mark.parametrize("source", [
    pytest.param(PLAIN, id="no-emulated-api"),
    pytest.param(b'const char* s = "__ldlu(p)"; // __syncwarp()\n', id="in-strings-comments"),
    pytest.param(b"void __ldlu_helper(int* p);\n", id="longer-name"),
])
def test_look_alikes_get_no_header(source: bytes):
    assert b"hipport_polyfills.h" not in convert_source(source, name="k.cu").output


def test_polyfills_none_keeps_the_ledger_finding():
    from hipport.settings import Settings

    result = convert_source(LDLU, Settings(polyfills=()), name="k.cu")
    assert "HP901" in codes(result) and b"hipport_polyfills" not in result.output


def test_a_tree_gets_one_header_with_what_it_uses(tmp_path: Path):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "a.cu").write_bytes(LDLU)
    (src / "z.cu").write_bytes(PLAIN)
    result = run(str(src), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    header = (tmp_path / "out" / "hipport_polyfills.h").read_bytes()
    assert header.startswith(MARKER)
    assert covered_names(header) == {"__ldcs", "__ldlu"}  # one fallback, two names
    assert b'#include "../hipport_polyfills.h"' in (tmp_path / "out" / "sub" / "a.cu").read_bytes()
    assert b"polyfills" not in (tmp_path / "out" / "z.cu").read_bytes()
    assert "2 files converted" in result.stderr  # the header is not one of the user's files
    assert not (src / "hipport_polyfills.h").exists()


def test_converting_part_of_a_tree_keeps_what_the_rest_needs(tmp_path: Path):
    (tmp_path / "a.cu").write_bytes(LDLU)
    (tmp_path / "b.cu").write_bytes(SYNC)
    assert run(str(tmp_path / "a.cu"), "--in-place").exit_code == 0
    assert run(str(tmp_path / "b.cu"), "--in-place").exit_code == 0
    assert {"__ldlu", "__syncwarp"} <= covered_names((tmp_path / "hipport_polyfills.h")
                                                     .read_bytes())
    again = run(str(tmp_path), "--in-place")
    assert again.exit_code == 0 and "nothing left to convert in 2 files" in again.stderr


PREFETCH = (b"#include <cuda_runtime.h>\n"
            b"void f(float* x, size_t n, cudaStream_t s) {\n"
            b"  cudaMemLocation here = {};\n  here.type = cudaMemLocationTypeDevice;\n"
            b"  cudaMemPrefetchAsync(x, n, here, 0, s);\n}\n")


def test_a_rerun_writes_the_header_the_first_run_wrote(tmp_path: Path):
    # An interrupted in-place run converts sources but never gets to write the
    # header; the next run sees HIP names only (hipMemPrefetchAsync with a
    # hipMemLocation), and must still emit CUDA 13's overload.
    (tmp_path / "a.cu").write_bytes(PREFETCH)
    (tmp_path / "b.cu").write_bytes(SYNC)
    assert run(str(tmp_path), "--in-place").exit_code == 0
    header = tmp_path / "hipport_polyfills.h"
    first = header.read_bytes()
    assert "cudaMemPrefetchAsync" in covered_names(first)
    assert b"hipMemPrefetchAsync(x, n, here, 0, s)" in (tmp_path / "a.cu").read_bytes()
    header.unlink()
    again = run(str(tmp_path), "--in-place")
    assert again.exit_code == 0 and "nothing left to convert in 2 files" in again.stderr
    assert header.read_bytes() == first


def test_a_converted_prefetch_by_device_number_needs_no_overload(tmp_path: Path):
    # The look-alike: HIP's own signature in a file that includes the header
    # for another reason.
    (tmp_path / "a.cu").write_bytes(
        SYNC + b"void f(float* x, size_t n) { hipMemPrefetchAsync(x, n, 0, 0); }\n")
    assert run(str(tmp_path), "--in-place").exit_code == 0
    header = tmp_path / "hipport_polyfills.h"
    header.unlink()
    assert run(str(tmp_path), "--in-place").exit_code == 0
    assert covered_names(header.read_bytes()) == {"__syncwarp"}


@pytest.mark.parametrize("mode", ["in-place", "output"])
def test_a_users_own_header_is_never_replaced(tmp_path: Path, mode: str):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(LDLU)
    where = src if mode == "in-place" else tmp_path / "out"
    where.mkdir(exist_ok=True)
    mine = where / "hipport_polyfills.h"
    mine.write_text("// mine\n")
    args = ["--in-place"] if mode == "in-place" else ["-o", str(tmp_path / "out"), "--force"]
    result = run(str(src), *args)
    assert result.exit_code == 2
    assert "was not generated by hipport" in result.stderr and "--polyfills none" in result.stderr
    assert mine.read_text() == "// mine\n" and (src / "a.cu").read_bytes() == LDLU


def test_a_symlinked_header_is_never_written_through(tmp_path: Path):
    (tmp_path / "a.cu").write_bytes(LDLU)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere.h"
    elsewhere.write_bytes(MARKER + b": old\n")
    os.symlink(elsewhere, tmp_path / "hipport_polyfills.h")
    result = run(str(tmp_path), "--in-place")
    assert result.exit_code == 2 and "symbolic link" in result.stderr
    assert elsewhere.read_bytes() == MARKER + b": old\n"


def test_compat_puts_the_fallbacks_into_its_header(tmp_path: Path):
    (tmp_path / "a.cu").write_bytes(b"#include <cuda_runtime.h>\n" + LDLU)
    result = run(str(tmp_path), "--strategy", "compat", "--in-place")
    assert result.exit_code == 0, result.stderr
    header = (tmp_path / "hip_compat.h").read_bytes()
    assert b"/* polyfill ldcs-ldlu (hint-dropped): __ldcs, __ldlu */" in header
    assert not (tmp_path / "hipport_polyfills.h").exists()
    assert "0 unconverted" in result.stderr
    again = run(str(tmp_path), "--strategy", "compat", "--in-place")
    assert (tmp_path / "hip_compat.h").read_bytes() == header
    assert "nothing left to convert" in again.stderr


LOCATED = (b"#include <cuda_runtime.h>\n"
           b"cudaError_t f(void* p, size_t n, cudaStream_t s) {\n"
           b"  cudaMemLocation gpu = {};\n  gpu.type = cudaMemLocationTypeDevice;\n"
           b"  return cudaMemPrefetchAsync(p, n, gpu, 0, s);\n}\n")


@pytest.mark.parametrize("target", ["6.4", "7.2"])
def test_compat_gives_cuda_13s_overloads_to_a_file_that_builds_a_location(tmp_path: Path,
                                                                        target: str):
    """No name of the file is emulated (the location types have HIP names,
    and 7.2's host ones too), but its call takes CUDA 13's signature: compat's
    header gets the overloads, as the rewrite's does."""
    (tmp_path / "a.cu").write_bytes(LOCATED)
    result = run(str(tmp_path), "--strategy", "compat", "--in-place", "--rocm-version", target)
    assert result.exit_code == 0, result.stderr
    header = (tmp_path / "hip_compat.h").read_bytes()
    assert b"/* polyfill mem-location (exact): cudaMemPrefetchAsync, cudaMemAdvise, " in header
    assert b"#define HIPPORT_ROCM_HAS_MEM_LOCATION 0" in header
    (tmp_path / "a.cu").write_bytes(LOCATED.replace(b"gpu, 0, s", b"0, s").replace(
        b"  cudaMemLocation gpu = {};\n  gpu.type = cudaMemLocationTypeDevice;\n", b""))
    (tmp_path / "hip_compat.h").unlink()
    assert run(str(tmp_path), "--strategy", "compat", "--in-place").exit_code == 0
    assert b"polyfill" not in (tmp_path / "hip_compat.h").read_bytes()  # CUDA 12's call


REDUCE = (b"#include <cuda_runtime.h>\n"
          b"__global__ void r(int* p) { p[1] = __reduce_max_sync(0xffffffffu, p[0]); }\n")


FORWARDS = b'  /* forwards to the tree\'s polyfill header */\n'


def full_headers(root: Path) -> list[str]:
    """The generated headers under ``root`` that are not forwarders."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("hipport_polyfills.h")
                  if FORWARDS not in p.read_bytes())


def partial_rerun(tree: Path) -> None:
    """Issue 31 §7: a tree converted in place, a new emulated use in a
    subfolder, and that subfolder converted again on its own (in a
    repository: the header is looked for up to its root)."""
    (tree / ".git").mkdir(parents=True)
    (tree / "sub").mkdir()
    (tree / "a.cu").write_bytes(SYNC)
    (tree / "sub" / "b.cu").write_bytes(SYNC)
    assert run(str(tree), "--in-place").exit_code == 0
    b = tree / "sub" / "b.cu"
    b.write_bytes(b.read_bytes() + REDUCE.split(b"\n", 1)[1])
    result = run(str(tree / "sub"), "--in-place")
    assert result.exit_code == 0, result.stderr
    # The run changed no source: it says the header it updated.
    assert "nothing left to convert in 1 file · updated " in result.stderr
    assert "hipport_polyfills.h" in result.stderr.rsplit("updated ", 1)[1]


def test_a_subfolder_converted_again_updates_the_trees_header(tmp_path: Path):
    partial_rerun(tmp_path)
    # The tree's header was found above and now emulates the new use; no
    # second header beside the file (it still includes the tree's).
    assert full_headers(tmp_path) == ["hipport_polyfills.h"]
    assert not (tmp_path / "sub" / "hipport_polyfills.h").exists()
    assert {"__syncwarp", "__reduce_max_sync"} <= covered_names(
        (tmp_path / "hipport_polyfills.h").read_bytes())
    assert (tmp_path / "sub" / "b.cu").read_bytes().count(b"hipport_polyfills.h") == 1


@pytest.mark.parametrize("whole", [True, False], ids=["whole-tree", "one-file"])
def test_a_folder_converted_on_its_own_first_gets_a_forwarder(tmp_path: Path, whole: bool):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.cu").write_bytes(LDLU)
    (tmp_path / "sub" / "b.cu").write_bytes(SYNC)
    assert run(str(tmp_path / "sub"), "--in-place").exit_code == 0
    assert full_headers(tmp_path) == ["sub/hipport_polyfills.h"]
    later = run(str(tmp_path if whole else tmp_path / "a.cu"), "--in-place")
    assert later.exit_code == 0, later.stderr
    # One header for the tree, with what both folders use; the folder's
    # files keep their include, which now leads to it.
    assert full_headers(tmp_path) == ["hipport_polyfills.h"]
    assert {"__ldlu", "__syncwarp"} <= covered_names((tmp_path / "hipport_polyfills.h")
                                                     .read_bytes())
    forwarder = (tmp_path / "sub" / "hipport_polyfills.h").read_bytes()
    assert forwarder.startswith(MARKER)
    assert forwarder.endswith(b'#include "../hipport_polyfills.h"' + FORWARDS)
    again = run(str(tmp_path), "--in-place")
    assert again.exit_code == 0 and "nothing left to convert" in again.stderr
    assert (tmp_path / "sub" / "hipport_polyfills.h").read_bytes() == forwarder


def two_projects(tmp_path: Path) -> Path:
    two = tmp_path / "two"
    for name in ("t1", "t2"):
        (two / name).mkdir(parents=True)
        (two / name / "mem.cu").write_bytes(SYNC)
    return two


@pytest.mark.parametrize("mode", ["in-place", "output"])
def test_each_folder_named_gets_its_own_header(tmp_path: Path, mode: str):
    # Issue 31 §12: t2's file included "../t1/hipport_polyfills.h".
    two = two_projects(tmp_path)
    out = tmp_path / "out"
    args = ["--in-place"] if mode == "in-place" else ["-o", str(out)]
    result = run(str(two / "t1"), str(two / "t2"), *args)
    assert result.exit_code == 0, result.stderr
    where = two if mode == "in-place" else out
    assert full_headers(where) == ["t1/hipport_polyfills.h", "t2/hipport_polyfills.h"]
    for name in ("t1", "t2"):
        text = (where / name / "mem.cu").read_bytes()
        assert b'#include "hipport_polyfills.h"' in text and b"../" not in text


def test_a_folder_named_inside_another_named_shares_its_header(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.cu").write_bytes(LDLU)
    (tmp_path / "sub" / "b.cu").write_bytes(SYNC)
    result = run(str(tmp_path / "sub" / "b.cu"), str(tmp_path), "--in-place")
    assert result.exit_code == 0, result.stderr
    assert full_headers(tmp_path) == ["hipport_polyfills.h"]
    assert b'"../hipport_polyfills.h"' in (tmp_path / "sub" / "b.cu").read_bytes()


def _syntax_error(unit: Path, oracle) -> str | None:
    from tests.toolchain import compile_hip

    proc = compile_hip(unit, extra_args=["-fsyntax-only"], oracle=oracle)
    return None if proc.returncode == 0 else proc.stderr[-3000:]


def test_the_rerun_subfolder_and_each_project_compile(tmp_path: Path, hip_oracle):
    # Before: "use of undeclared identifier '__reduce_max_sync'" (§7); t2
    # built only beside t1 (§12).
    partial_rerun(tmp_path / "tree")
    assert _syntax_error(tmp_path / "tree" / "sub" / "b.cu", hip_oracle) is None
    two = two_projects(tmp_path)
    assert run(str(two / "t1"), str(two / "t2"), "--in-place").exit_code == 0
    (two / "t1").rename(tmp_path / "elsewhere")  # t2 builds on its own
    assert _syntax_error(two / "t2" / "mem.cu", hip_oracle) is None


RING = (b"#include <cuda_runtime.h>\n"
        b"__global__ void k(unsigned* head, unsigned* credits, unsigned n) {\n"
        b"  atomicInc_system(head, n - 1);\n  atomicDec_system(credits, n);\n}\n")


def test_scoped_atomics_hip_lacks_are_emulated():
    """Neither HIP 5.2 nor ROCm 6.4 declares atomicInc_system/atomicDec_system:
    uses are emulated (exact), not left as unknown names."""
    for target in ("5.2", "6.4"):
        result = convert_source(RING, Settings(rocm_version=parse_target(target)), name="k.cu")
        emulated = sorted(f.finding.cuda_name for f in result.findings if f.code == "HP701")
        assert emulated == ["atomicDec_system", "atomicInc_system"], target
        assert b'#include "hipport_polyfills.h"\n' in result.output
        assert result.stats.refs_unconverted == 0


@pytest.mark.parametrize("source", [
    pytest.param(b"__global__ void k(unsigned* p) { atomicAdd_system(p, 1u); }\n",
                 id="scoped-atomic-hip-has"),
    pytest.param(b"struct Ring { unsigned atomicInc_system_count; };\n", id="longer-name"),
])
def test_scoped_atomics_hip_has_get_no_header(source: bytes):
    assert b"hipport_polyfills.h" not in convert_source(source, name="k.cu").output


GRID = b"struct P { float w[1024]; };\n__global__ void k(const __grid_constant__ P p, float* o) " \
    b"{ o[0] = p.w[0]; }\n"


def test_grid_constant_hip_rejects_is_defined_by_the_header():
    result = convert_source(GRID, name="k.cu")
    assert [f.finding.cuda_name for f in result.findings if f.code == "HP701"] == \
        ["__grid_constant__"]
    assert b'#include "hipport_polyfills.h"\n' in result.output
    bare = convert_source(GRID, Settings(polyfills=()), name="k.cu")
    assert [f.code for f in bare.findings if f.finding.cuda_name == "__grid_constant__"] == \
        ["HP901"]


@pytest.mark.parametrize("source", [
    pytest.param(b"// const __grid_constant__ P p\nint x;\n", id="comment"),
    pytest.param(b'const char* s = "__grid_constant__";\n', id="string"),
    pytest.param(b"int my__grid_constant__value;\n", id="longer-name"),
])
def test_grid_constant_look_alikes_get_nothing(source: bytes):
    result = convert_source(source, name="k.cu")
    assert b"hipport_polyfills.h" not in result.output
    assert not [f for f in result.findings if f.code in ("HP701", "HP901")]
