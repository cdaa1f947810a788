"""Mapping targets must be C/C++ names (or header paths): a rules entry whose
`hip:` is blank, two tokens, a keyword or an expression is refused with its
key path (docs/safety.md, "Names, outputs and configuration")."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from tests.catalogue.catalogue import yaml_files

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaMalloc(0, 0); cudaFree(p); }\n"
HEAD = "schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"


def run(*args: str):
    return CliRunner().invoke(cli, [*args, "-j", "1"], catch_exceptions=False)


def rules_with(tmp_path: Path, entry: str) -> Path:
    """A rules file mapping cudaMalloc, then ``entry`` (at line 7)."""
    rules = tmp_path / "rules.yaml"
    rules.write_text(HEAD + "  - cuda: cudaMalloc\n    hip: hipMalloc\n    kind: function\n"
                     + entry)
    return rules


def assert_refused(tree: Path, rules: Path, where: str, words: str) -> None:
    """convert --rules stops before any file is read, with one line that
    names the file, the line and the key."""
    result = run("convert", str(tree), "--in-place", "--rules", str(rules))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"hipport: error: {rules}:{where}: "), result.stderr
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert (tree / "a.cu").read_bytes() == CUDA


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(CUDA)
    return src


# -- mapping targets (item 10) -----------------------------------------------

TARGETS = [
    ("blank", "function", '" "', "expected a C/C++ name"),
    ("two tokens", "function", '"hip\\nMalloc"', "expected a C/C++ name"),
    ("spaces inside", "function", '"hip Malloc"', "expected a C/C++ name"),
    ("keyword for a function", "function", "int", "'int' is a C++ keyword, not a function"),
    ("keyword for a macro", "macro", "while", "'while' is a C++ keyword"),
    ("keyword in a qualified name", "type", "hip::class", "'class' is a C++ keyword"),
    ("expression", "function", '"hipMalloc(0)"', "expected a C/C++ name"),
    ("leading digit", "enum", "2hipSuccess", "expected a C/C++ name"),
    ("dangling scope", "type", '"hip::"', "expected a C/C++ name"),
    ("two-word type", "type", '"unsigned long"', "expected a C/C++ name"),
    ("header with a space", "header", '"hip/hip runtime.h"', "expected a relative header path"),
    ("absolute header", "header", "/usr/include/hip.h", "expected a relative header path"),
    ("header leaving its folder", "header", "../hip.h", "expected a relative header path"),
]


@pytest.mark.parametrize("name, kind, hip, words", TARGETS, ids=[t[0] for t in TARGETS])
def test_bad_mapping_targets_are_refused(tree: Path, tmp_path: Path, name, kind, hip, words):
    rules = rules_with(tmp_path, f"  - cuda: cudaFoo\n    hip: {hip}\n    kind: {kind}\n")
    assert_refused(tree, rules, "8: entries[1].hip", words)


def test_blank_target_no_longer_erases_the_call(tree: Path, tmp_path: Path):
    # The report of issue 14: `hip: " "` turned cudaMalloc(0,0) into ` (0,0)`.
    rules = tmp_path / "rules.yaml"
    rules.write_text(HEAD + '  - cuda: cudaMalloc\n    hip: " "\n    kind: function\n')
    result = run("convert", str(tree), "--in-place", "--rules", str(rules))
    assert result.exit_code == 2
    assert b" (0, 0)" not in (tree / "a.cu").read_bytes()


@pytest.mark.parametrize("kind, hip", [
    ("function", "hipMalloc"), ("type", "hipcub::BlockReduce"), ("type", "int"),
    ("device_function", "cooperative_groups::this_grid"), ("macro", "__HIP_DEVICE_COMPILE__"),
    ("header", "hip/hip_runtime.h"), ("header", "hipcub/hipcub.hpp"),
    ("header", "rocm-core/rocm_version.h"),
])
def test_good_mapping_targets_are_accepted(tree: Path, tmp_path: Path, kind, hip):
    rules = tmp_path / "rules.yaml"
    rules.write_text(HEAD + f"  - cuda: cudaFoo\n    hip: {hip}\n    kind: {kind}\n")
    result = CliRunner().invoke(cli, ["mappings", "validate", str(rules)])
    assert result.exit_code == 0, result.output


def test_the_catalogue_passes_the_target_check():
    from hipport.table.schema import source_problem, target_problem
    from hipport.table.yaml_file import parse_mapping_file

    bad = []
    for path in yaml_files():
        for m in parse_mapping_file(path.read_text(encoding="utf-8"), str(path)):
            if m.hip is not None and target_problem(m.kind, m.hip) is not None:
                bad.append(m.origin)
            if source_problem(m.kind, m.cuda) is not None:
                bad.append(m.origin)
    assert not bad


# -- CUDA names and versions (issue 24) ---------------------------------------

SOURCES = [
    ("spaces inside", "function", '"cuda Malloc"', "expected a C/C++ identifier"),
    ("expression", "function", '"cudaMalloc(0)"', "expected a C/C++ identifier"),
    ("leading digit", "enum", "2cudaSuccess", "expected a C/C++ identifier"),
    ("dangling scope", "type", '"cub::"', "expected a C/C++ identifier"),
    ("keyword", "type", "int", "expected a C/C++ identifier, got the keyword 'int'"),
    ("header with a space", "header", '"cuda runtime.h"', "expected a relative header path"),
    ("header leaving its folder", "header", "../cuda.h", "expected a relative header path"),
]


@pytest.mark.parametrize("name, kind, cuda, words", SOURCES, ids=[t[0] for t in SOURCES])
def test_bad_cuda_names_are_refused(tree: Path, tmp_path: Path, name, kind, cuda, words):
    hip = "hip/hip_runtime.h" if kind == "header" else "hipFoo"
    rules = rules_with(tmp_path, f"  - cuda: {cuda}\n    hip: {hip}\n    kind: {kind}\n")
    assert_refused(tree, rules, "7: entries[1].cuda", words)
    result = CliRunner().invoke(cli, ["mappings", "validate", str(rules)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{rules}:7: entries[1].cuda: ") and words in result.stderr


VERSIONS = [
    ("banana", "rocm_version: {added: banana}", "entries[1].rocm_version.added"),
    ("empty part", 'rocm_version: {removed: "6..2"}', "entries[1].rocm_version.removed"),
    ("prefixed", 'cuda_version: {added: "v12.0"}', "entries[1].cuda_version.added"),
    ("four parts", 'cuda_version: {deprecated: "12.0.1.2"}', "entries[1].cuda_version.deprecated"),
    # Python's \d, int() and isdigit() take these digits; they were echoed back.
    ("arabic-indic digits", 'rocm_version: {added: "\u0666.\u0662"}',
     "entries[1].rocm_version.added"),
    ("fullwidth digits", 'cuda_version: {added: "\uff11\uff12.\uff10"}',
     "entries[1].cuda_version.added"),
    ("in older", 'rocm_version: {added: "6.2"}\n    older: {hip: hipFoo0, rocm_version: '
                 '{added: "5.x"}}', "entries[1].older.rocm_version.added"),
]


@pytest.mark.parametrize("name, line, where", VERSIONS, ids=[t[0] for t in VERSIONS])
def test_versions_that_are_not_versions_are_refused(tree: Path, tmp_path: Path, name, line,
                                                      where):
    # `added: "banana"` was taken as 0.0: every target had the name.
    rules = rules_with(tmp_path, f"  - cuda: cudaFoo\n    hip: hipFoo\n    kind: function\n"
                                 f"    {line}\n")
    result = CliRunner().invoke(cli, ["mappings", "validate", str(rules)])
    assert result.exit_code == 1, result.output
    assert f": {where}: expected a version like 6.2, got " in result.stderr, result.stderr
    assert result.stderr.startswith(f"{rules}:")
    result = run("convert", str(tree), "--in-place", "--rules", str(rules))
    assert result.exit_code == 2
    assert f"hipport: error: {rules}:" in result.stderr and where in result.stderr
    assert (tree / "a.cu").read_bytes() == CUDA


@pytest.mark.parametrize("versions", [
    'rocm_version: {added: "6"}', 'rocm_version: {added: "6.2"}',
    "rocm_version: {added: 6.2}", 'rocm_version: {added: "6.2.1", removed: "7.0"}',
    'cuda_version: {added: "12.0", deprecated: "12.4.1"}',
])
def test_good_versions_are_accepted(tmp_path: Path, versions):
    rules = rules_with(tmp_path, f"  - cuda: cudaFoo\n    hip: hipFoo\n    kind: function\n"
                                 f"    {versions}\n")
    result = CliRunner().invoke(cli, ["mappings", "validate", str(rules)])
    assert result.exit_code == 0, result.output

