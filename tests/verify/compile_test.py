"""`hipport verify` with each real HIP compiler (HIP 5.2, ROCm 6.4): trees
that compile, a broken unit found at its first error, the include paths and
macros the build files give, and the bundled examples converted and
verified."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.conftest import REPO
from tests.toolchain import HipOracle

SCHEMA = json.loads((REPO / "docs" / "verify.schema.json").read_text())
KERNEL = """\
#include <hip/hip_runtime.h>
#include "config.h"
__global__ void scale(float *x) { x[threadIdx.x] *= SCALE; }
int main() { hipLaunchKernelGGL(scale, dim3(1), dim3(WIDTH), 0, 0, nullptr); }
"""


def verify(oracle: HipOracle, monkeypatch, *args):
    for key, value in oracle.env:
        monkeypatch.setenv(key, value)
    extra = [f"--hipcc-arg={a}" for a in oracle.include_args]
    command = [*map(str, args), "--hipcc", oracle.hipcc, *extra]
    return CliRunner().invoke(cli, command, catch_exceptions=False)


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def version(oracle: HipOracle) -> str:
    return f"HIP {oracle.hip_version[0]}.{oracle.hip_version[1]}"


def test_a_tree_that_compiles(tmp_path, hip_oracle, monkeypatch):
    src = tree(tmp_path, {"a.hip": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n",
                          "b.cu": "#include <hip/hip_runtime.h>\n__device__ int f() "
                          "{ return warpSize; }\n",
                          "host.cpp": "#include <hip/hip_runtime_api.h>\n"
                          "int main() { return hipDeviceSynchronize() != hipSuccess; }\n",
                          "plain.cpp": "this is not C++ and is not a unit\n",
                          "k.cuh": "this header is not compiled\n"})
    result = verify(hip_oracle, monkeypatch, "verify", src, "--strict")
    assert result.exit_code == 0, result.output
    summary = result.stderr.strip().splitlines()[-1]
    assert summary.startswith(f"3 of 3 translation units compile with hipcc "
                              f"({version(hip_oracle)}, clang {hip_oracle.clang_major}."), summary
    assert "for gfx90a (" in summary


def test_a_broken_unit_is_found_at_its_first_error(tmp_path, hip_oracle, monkeypatch):
    src = tree(tmp_path, {
        "ok.hip": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n",
        "inc/helper.h": "#pragma once\n\ninline __device__ int helper() "
                        "{ return not_declared_anywhere; }\n",
        "bad.hip": "#include <hip/hip_runtime.h>\n#include \"helper.h\"\n"
                   "__global__ void k(int *p) { p[0] = helper(); }\n"
                   "__global__ void k2(int *p) { p[0] = 1 }\n",
        "CMakeLists.txt": "include_directories(inc)\n"})
    result = verify(hip_oracle, monkeypatch, "verify", src, "--units", "--strict", "-f", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["summary"]["units"] == 2 and data["summary"]["compiled"] == 1
    (finding,) = data["findings"]
    assert finding["code"] == "HP020"
    assert finding["unit"].endswith("bad.hip")
    # The first error, in the header, not the later one in the unit itself.
    assert finding["location"]["path"].endswith("inc/helper.h")
    assert (finding["location"]["line"], finding["location"]["column"]) == (3, 41)
    assert "not_declared_anywhere" in finding["message"]
    assert finding["compiler"]["included_from"][0]["line"] == 2
    assert data["compiler"]["hip_version"] == f"{hip_oracle.hip_version[0]}." \
                                              f"{hip_oracle.hip_version[1]}"
    text = verify(hip_oracle, monkeypatch, "verify", src, "--units")
    assert text.exit_code == 0
    lines = text.stderr.splitlines()
    assert any(line.endswith("helper.h:3:41: HP020 error: use of undeclared identifier "
                             "'not_declared_anywhere' (compiling for gfx90a)") for line in lines)
    assert "  in translation unit " in text.stderr
    assert lines[-1].startswith("1 of 2 translation units compile")


def _build_files(src: Path, kind: str) -> None:
    if kind == "CMakeLists.txt":
        (src / "CMakeLists.txt").write_text(
            "include_directories(${CMAKE_CURRENT_SOURCE_DIR}/include)\n"
            "add_definitions(-DSCALE=2.0f)\n"
            "target_compile_definitions(app PRIVATE WIDTH=32)\n")
    elif kind == "Makefile":
        (src / "Makefile").write_text(
            "INCLUDES := -Iinclude\nDEFS = -DSCALE=2.0f -DWIDTH=32\n"
            "app: src/app.hip\n\t$(HIPCC) $(INCLUDES) $(DEFS) $< -o $@\n")
    else:
        (src / "build").mkdir()
        (src / "build" / "compile_commands.json").write_text(json.dumps([{
            "directory": str(src / "build"), "file": "../src/app.hip",
            "command": "hipcc -I../include -DSCALE=2.0f -DWIDTH=32 -c ../src/app.hip"}]))


@pytest.mark.parametrize("kind", ["CMakeLists.txt", "Makefile", "compile_commands.json"])
def test_include_paths_and_macros_from_the_build(tmp_path, hip_oracle, monkeypatch, kind):
    src = tree(tmp_path / "t", {"src/app.hip": KERNEL, "include/config.h": "#pragma once\n"})
    bare = verify(hip_oracle, monkeypatch, "verify", src, "-f", "json")
    (finding,) = json.loads(bare.stdout)["findings"]
    assert "'config.h' file not found" in finding["message"]  # the flags are needed
    _build_files(src, kind)
    result = verify(hip_oracle, monkeypatch, "verify", src, "--units", "--strict", "-f", "json")
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["summary"]["compiled"] == 1
    expected = "compile_commands.json" if kind == "compile_commands.json" else "build files"
    assert data["units"][0]["flags_from"] == expected


def test_examples_converted_and_verified(tmp_path, hip_oracle, monkeypatch):
    src = tmp_path / "examples"
    shutil.copytree(REPO / "examples", src)
    # Each unit alone, on both compilers (tests/verify/build_test.py builds
    # them with ROCm 6.4's cmake; Debian 12 has no hipBLAS or hipFFT to link).
    result = verify(hip_oracle, monkeypatch, "convert", src, "-o", tmp_path / "out",
                    "--verify-units", "--strict")
    summary = result.stderr.strip().splitlines()[-1]
    units = len(list((REPO / "examples").rglob("*.cu")))
    assert summary.startswith(f"{units} of {units} translation units compile with hipcc "
                              f"({version(hip_oracle)}"), result.stderr
    # --strict: the examples keep unconverted references (HP901 ...) on purpose,
    # so convert exits 1 for those; verify added no failure of its own.
    assert "HP020" not in result.stderr and "HP021" not in result.stderr


def test_device_code_generation_errors_need_a_compile(tmp_path, hip_oracle, monkeypatch):
    """Why -c is the default: NVIDIA inline assembly passes -fsyntax-only and
    fails only when the AMDGPU code is generated."""
    src = tree(tmp_path, {"asm.hip": "#include <hip/hip_runtime.h>\n__global__ void k(int *p) {\n"
                          "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(p[0]));\n}\n"})
    quick = verify(hip_oracle, monkeypatch, "verify", src, "--syntax-only", "--strict")
    assert quick.exit_code == 0, quick.output
    full = verify(hip_oracle, monkeypatch, "verify", src, "--strict", "-f", "json")
    assert full.exit_code == 1
    (finding,) = json.loads(full.stdout)["findings"]
    assert finding["location"]["path"].endswith("asm.hip")
    assert finding["location"]["line"] == 3
    assert finding["compiler"]["target"] == "gfx90a"


def test_a_gpu_target_the_compiler_does_not_know(tmp_path, hip_oracle, monkeypatch):
    """One usage error (asked once, of the compiler), not an error per unit."""
    src = tree(tmp_path, {"a.hip": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n",
                          "b.hip": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"})
    typo = verify(hip_oracle, monkeypatch, "verify", src, "--offload-arch", "gfx9000")
    assert typo.exit_code == 2 and "HP020" not in typo.stderr
    assert typo.stderr.startswith("hipport: error: --offload-arch gfx9000: not a GPU target "
                                  f"hipcc ({version(hip_oracle)}"), typo.stderr
    assert "did you mean `gfx900`" in typo.stderr
    mi300 = verify(hip_oracle, monkeypatch, "verify", src, "--offload-arch", "gfx942",
                   "--syntax-only")
    if "gfx942" in hip_oracle.offload_archs:
        assert mi300.exit_code == 0, mi300.stderr
    else:  # Clang 15 (HIP 5.2) has no gfx942
        assert mi300.exit_code == 2 and "(a newer Clang does)" in mi300.stderr
