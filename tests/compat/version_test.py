"""HP309, a CUDA version test answered for --assume-cuda-version, says what
each strategy did: the rewrite replaced the test by its value (the original
in a comment) and lists it without --verbose, since it chose a branch for the
user; compat left the line as it was and its header defines the macros."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.cli import cli
from hipport.compat.strategy import CompatStrategy
from hipport.rewrite import RewriteStrategy
from hipport.strategy import Strategy

COMPAT_STRATEGY = CompatStrategy()

SOURCE = ("#include <cuda_runtime.h>\n#if CUDART_VERSION >= 11020\n"
          "void f(void *p) { cudaFree(p); }\n#endif\n")


def hp309(text: str, strategy: Strategy = RewriteStrategy()) -> tuple[str, bytes]:
    result = convert_source(text, strategy=strategy)
    found = [f for f in result.findings if f.code == "HP309"]
    assert len(found) == 1, result.findings
    return found[0].finding.message, result.output


def test_compat_says_the_line_is_unchanged_and_the_header_answers():
    message, output = hp309(SOURCE, COMPAT_STRATEGY)
    assert b"#if CUDART_VERSION >= 11020\n" in output
    assert "kept in a comment" not in message
    assert "the line is unchanged" in message
    assert "hip_compat.h defines CUDART_VERSION" in message


def test_compat_names_the_macros_its_header_leaves_undefined():
    message, _ = hp309("#ifdef __CUDACC_VER_BUILD__\nint x;\n#endif\n",
                       COMPAT_STRATEGY)
    assert "__CUDACC_VER_BUILD__" in message and "undefined" in message


def test_rewrite_says_the_test_was_replaced():
    message, output = hp309(SOURCE)
    assert b"#if 1 // CUDA 12.0 assumed: #if CUDART_VERSION >= 11020\n" in output
    assert "original kept in a comment" in message


@pytest.mark.parametrize("strategy", ["rewrite", "compat"])
def test_convert_lists_it_in_both_strategies(tmp_path: Path, strategy: str):
    (tmp_path / "k.cu").write_text(SOURCE)
    result = CliRunner().invoke(cli, ["convert", str(tmp_path), "--strategy", strategy])
    assert result.exit_code == 0, result.output
    line = next((ln for ln in result.stderr.splitlines() if " HP309 " in ln), "")
    assert ("kept in a comment" in line) == (strategy == "rewrite"), line
    assert ("the line is unchanged" in line) == (strategy == "compat"), line
