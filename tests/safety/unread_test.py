"""A file hipport cannot read as source text (UTF-16, binary) is skipped
with HP002; strict modes must not pass it silently (docs/safety.md, "Names,
outputs and configuration")."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli

CUDA = "void f(float** p) { cudaMalloc(p, 4); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "wide.cu").write_bytes(CUDA.encode("utf-16"))  # with a BOM
    (src / "ok.cu").write_bytes(b"#include <hip/hip_runtime.h>\nint plain(int x);\n")
    monkeypatch.chdir(tmp_path)
    return src


def test_convert_strict_fails_on_a_file_it_could_not_read(tree: Path):
    result = run("convert", "src", "--strict", "-j", "1", "--no-cache")
    assert result.exit_code == 1, result.output  # before: 0
    assert "src/wide.cu:1:1: HP002" in result.stderr
    assert "--strict: 1 file could not be read as source text (HP002)" in result.stderr
    assert run("convert", "src", "-j", "1", "--no-cache").exit_code == 0  # not strict: as before


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32"])
def test_check_hip_only_fails_on_a_file_it_could_not_read(tree: Path, encoding: str):
    (tree / "wide.cu").write_bytes(CUDA.encode(encoding))
    result = run("check", "src", "--policy", "hip-only")
    assert result.exit_code == 1, result.output  # before: 0, and not a word
    assert result.stdout.startswith("src/wide.cu:1:1: HP002 ")
    assert "warning: not checked: src/wide.cu" in result.stderr
    assert "save it as UTF-8" in result.stderr and "ignore[HP002]" not in result.stderr
    assert run("check", "src", "--policy", "hip-only", "--ignore", "HP002").exit_code == 0


def test_check_says_which_files_it_did_not_check(tree: Path):
    result = run("check", "src")  # the default policy passes, but not silently
    assert result.exit_code == 0, result.output
    assert "hipport check: warning: not checked: src/wide.cu: UTF-16 text (hipport reads " \
        "UTF-8: re-save the file as UTF-8)" in result.stderr  # before: "binary content"


@pytest.mark.parametrize(("data", "says"), [
    (CUDA.encode("utf-16"), "UTF-16 text"),
    (CUDA.encode("utf-16-le") * 4, "UTF-16 text"),  # no byte-order mark
    (CUDA.encode("utf-32"), "UTF-32 text"),
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4, "binary content (NUL bytes)"),
])
def test_the_reason_names_the_encoding(data: bytes, says: str):
    from hipport.source import not_text_reason

    reason = not_text_reason(data)
    assert reason is not None and reason.startswith(says)
    assert not_text_reason(CUDA.encode()) is None
