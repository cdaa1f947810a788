"""Did you mean ...? (issue 19, item 7): every name a user types -- a code, a
code's name, a catalogue name, a library, a configuration key -- gets the
closest known ones, and `explain` alone lists every code."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.codes import CODES
from hipport.suggest import closest, did_you_mean


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("word, candidates, expected", [
    ("HP9011", ["HP901", "HP902", "HP101"], ["HP901"]),
    ("cublass", ["cublas", "cufft", "cublaslt"], ["cublas", "cublaslt"]),
    ("CUBLAS", ["cublas"], ["cublas"]),  # case is ignored, the candidate's spelling kept
    ("zzz", ["cublas", "cufft"], []),
])
def test_closest(word, candidates, expected):
    assert closest(word, candidates) == expected


def test_did_you_mean_wording():
    assert did_you_mean("cublass", ["cublas"]) == "; did you mean `cublas`?"
    assert did_you_mean("cublass", ["cublas", "cublaslt"]) == \
        "; did you mean `cublas` or `cublaslt`?"
    assert did_you_mean("zzz", ["cublas"]) == ""


@pytest.mark.parametrize("typed, suggested", [
    ("HP9011", "`HP901`"),
    ("unsuported-cuda-api", "`unsupported-cuda-api`"),
    ("warp-size-litteral", "`warp-size-literal`"),
])
def test_explain_suggests_the_closest_code(typed, suggested):
    result = run("explain", typed)
    assert result.exit_code == 2
    assert f"unknown code '{typed}'; did you mean {suggested}" in result.stderr


def test_explain_with_nothing_close_points_to_the_list():
    result = run("explain", "HQ123")
    assert result.exit_code == 2 and "codes look like HP101" in result.stderr
    assert "`hipport explain` lists them all" in result.stderr


@pytest.mark.parametrize("args", [(), ("--all",)])
def test_explain_alone_lists_every_code(args):
    result = run("explain", *args)
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()
              if line.startswith("  HP")]
    assert sorted(listed) == sorted(CODES)
    assert "  HP401  warp-size-literal" in result.stdout


def test_explain_says_which_policies_fail_and_the_fix():
    result = run("explain", "HP901")
    assert result.stdout.startswith("HP901 unsupported-cuda-api (warning)\n")
    assert "hipport check: fails under the no-unmapped and hip-only policies." in result.stdout
    renamed = run("explain", "runtime-api").stdout
    assert "fails under the hip-only policy." in renamed
    assert "`hipport convert` applies it" in renamed
    hazard = run("explain", "HP401").stdout
    assert "fails only when named in --fail-on" in hazard
    assert "--unsafe-fixes" in hazard


def test_mappings_show_suggests_catalogue_names():
    result = run("mappings", "show", "cudaMalocManaged")
    assert result.exit_code == 1
    assert "cudaMalocManaged: not in the catalogue; did you mean `cudaMallocManaged`" \
        in result.stderr


def test_unknown_library_is_an_error_with_a_suggestion():
    result = run("mappings", "list", "--library", "cublass")
    assert result.exit_code == 2
    assert "unknown library 'cublass'; did you mean `cublas`" in result.stderr
    assert result.stdout == ""
    known = run("mappings", "list", "--library", "cufft")
    assert known.exit_code == 0 and known.stdout.count("\tcufft\t") > 10


def test_unknown_library_with_nothing_close_lists_them():
    result = run("mappings", "list", "--library", "zzz")
    assert result.exit_code == 2 and "libraries: " in result.stderr and "cublas" in result.stderr


@pytest.mark.parametrize("typed, message", [
    ("HP9011", "'HP9011' is not a code or code prefix; did you mean `HP901`?"),
    # (HP4011 is as close to HP411 as to HP401 since HP411 exists)
    ("HP4200", "'HP4200' is not a code or code prefix; did you mean `HP420`?"),
    ("HP908", "unknown code 'HP908'; did you mean `HP906`?"),
])
def test_fail_on_suggests_a_code(tmp_path: Path, typed, message):
    (tmp_path / "k.cu").write_bytes(b"int x;\n")
    result = run("check", "--fail-on", typed, str(tmp_path / "k.cu"))
    assert result.exit_code == 2
    assert message in result.stderr


def test_configuration_key_suggestion(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "pyproject.toml").write_text('[tool.hipport.check]\npolcy = "hip-only"\n')
    (tmp_path / "k.cu").write_bytes(b"int x;\n")
    monkeypatch.chdir(tmp_path)
    result = run("check", "k.cu")
    assert result.exit_code == 2
    assert "unknown key; did you mean `policy`?" in result.stderr
