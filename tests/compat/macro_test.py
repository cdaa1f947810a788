"""`--compat-macro NAME`: a C identifier the header can test with
`defined(NAME)`, refused (exit 2, nothing written) with a clear reason and a
suggestion otherwise; a changed macro is re-spelled, never nested."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hipport.cli import cli

CUDA = "#include <cuda_runtime.h>\nvoid f(void *p) { cudaFree(p); }\n"


def convert(tree: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["convert", str(tree), "--strategy", "compat", "--in-place",
                                    "-q", *args])


@pytest.mark.parametrize("macro, said", [
    ("defined", "`defined` is the preprocessor's operator"),
    ("USE-HIP", "did you mean `USE_HIP`?"),
    ("1HIP", "did you mean `_1HIP`?"),
    ("int", "`int` is a C/C++ keyword"),
    ("and", "`and` is a C/C++ keyword"),
    ("__has_include", "the preprocessor's operator"),
    ("__VA_ARGS__", "reserved"),
    ("__cplusplus", "the NVIDIA build defines it too"),
    ("__CUDACC__", "the NVIDIA build defines it too"),
    ("", "is not a macro name"),
])
def test_a_name_the_header_cannot_test_is_refused(tmp_path: Path, macro: str, said: str):
    (tmp_path / "k.cu").write_text(CUDA)
    result = convert(tmp_path, "--compat-macro", macro)
    assert result.exit_code == 2, result.output
    assert said in result.stderr, result.stderr
    assert "--compat-macro" in result.stderr
    assert (tmp_path / "k.cu").read_text() == CUDA and not (tmp_path / "hip_compat.h").exists()


@pytest.mark.parametrize("macro, tested", [
    ("USE_HIP", "defined(USE_HIP)"), ("_HIP", "defined(_HIP)"), ("ROCm6", "defined(ROCm6)"),
    ("__HIP_PLATFORM_AMD__", "defined(__HIP_PLATFORM_AMD__) || defined(__HIP__)"),
])
def test_a_macro_name_is_taken(tmp_path: Path, macro: str, tested: str):
    (tmp_path / "k.cu").write_text(CUDA)
    assert convert(tmp_path, "--compat-macro", macro).exit_code == 0
    assert f"#if {tested}\n" in (tmp_path / "hip_compat.h").read_text()


def test_a_changed_macro_is_re_spelled_not_nested(tmp_path: Path):
    (tmp_path / "k.cu").write_text(CUDA)
    assert convert(tmp_path, "--compat-macro", "USE_HIP").exit_code == 0
    assert convert(tmp_path, "--compat-macro", "WITH_ROCM").exit_code == 0
    text = (tmp_path / "k.cu").read_text()
    assert text == ('#include "hip_compat.h"\n#if !defined(WITH_ROCM)\n'
                    "#include <cuda_runtime.h>\n#endif\nvoid f(void *p) { cudaFree(p); }\n")
    assert "#if defined(WITH_ROCM)\n" in (tmp_path / "hip_compat.h").read_text()
    # A re-run without the option keeps the tree's macro (the header says it).
    assert convert(tmp_path).exit_code == 0
    assert (tmp_path / "k.cu").read_text() == text
    assert "#if defined(WITH_ROCM)\n" in (tmp_path / "hip_compat.h").read_text()
    # The default, named, is the default.
    assert convert(tmp_path, "--compat-macro", "__HIP_PLATFORM_AMD__").exit_code == 0
    assert (tmp_path / "k.cu").read_text() == text.replace("WITH_ROCM", "__HIP_PLATFORM_AMD__")


def test_part_of_a_tree_cannot_change_its_macro(tmp_path: Path):
    (tmp_path / "k.cu").write_text(CUDA)
    (tmp_path / "j.cu").write_text(CUDA)
    assert convert(tmp_path, "--compat-macro", "USE_HIP").exit_code == 0
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    result = convert(tmp_path / "k.cu", "--compat-macro", "WITH_ROCM")
    assert result.exit_code == 2 and "selects the AMD build with USE_HIP" in result.stderr
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == before
    (tmp_path / "n.cu").write_text(CUDA)
    assert convert(tmp_path / "n.cu").exit_code == 0  # no option: the tree's macro
    assert "#if !defined(USE_HIP)\n" in (tmp_path / "n.cu").read_text()


def test_a_projects_own_test_of_another_macro_is_kept(tmp_path: Path):
    """Only the header's own macro (old or new) is re-spelled: a wrap the
    project wrote around its CUDA includes stays, with ours inside it."""
    own = "#if !defined(NO_CUDA)\n#include <cuda_runtime.h>\n#endif\n"
    (tmp_path / "k.cu").write_text(own + "void f(void *p) { cudaFree(p); }\n")
    assert convert(tmp_path, "--compat-macro", "USE_HIP").exit_code == 0
    assert "#if !defined(NO_CUDA)\n" in (tmp_path / "k.cu").read_text()
