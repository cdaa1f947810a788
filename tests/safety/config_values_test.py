"""Numbers in the configuration must be finite, and no JSON writer emits
NaN (docs/safety.md, "Names, outputs and configuration")."""
from __future__ import annotations

import ast
import dataclasses
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.report import render
from tests.conftest import REPO
from tests.report.helpers import report_of

CUDA = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaMalloc(0, 0); cudaFree(p); }\n"


def run(*args: str):
    return CliRunner().invoke(cli, [*args, "-j", "1"], catch_exceptions=False)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.cu").write_bytes(CUDA)
    return src


# -- numbers that are not finite (item 11) -----------------------------------

@pytest.mark.parametrize("name, text, key", [
    ("nan contingency", "[tool.hipport.report.effort]\ncontingency = nan\n", "contingency"),
    ("inf weight", "[tool.hipport.report.effort]\nper-converted-file = inf\n",
     "per-converted-file"),
    ("-inf priority", "[tool.hipport.report.effort]\nhigh-priority = -inf\n", "high-priority"),
    ("nan per-api", "[tool.hipport.report.effort.per-api]\nunmapped = nan\n",
     "per-api.unmapped"),
    ("nan per-finding", "[tool.hipport.report.effort.per-finding]\nHP401 = +nan\n",
     "per-finding.HP401"),
])
def test_non_finite_numbers_are_refused(tree: Path, tmp_path: Path, name, text, key):
    (tree / "pyproject.toml").write_text(text)
    for fmt in ("json", "md", "text"):
        out = tmp_path / f"report.{fmt}"
        result = run("report", str(tree), "-f", fmt, "-o", str(out), "-q")
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(
            f"hipport: error: {tree / 'pyproject.toml'}: tool.hipport.report.effort.{key}: "
            "expected a finite number, got "), result.stderr
        assert not out.exists()


def test_non_finite_numbers_in_yaml_configuration(tree: Path, tmp_path: Path):
    config = tmp_path / "effort.yaml"
    config.write_text("report:\n  effort:\n    contingency: .nan\n")
    result = run("report", str(tree), "--config", str(config))
    assert result.exit_code == 2 and "report.effort.contingency: expected a finite number" \
        in result.stderr


def test_huge_weights_are_refused(tree: Path):
    (tree / "pyproject.toml").write_text("[tool.hipport.report.effort]\n"
                                         "per-converted-reference = 1e308\n")
    result = run("report", str(tree), "-f", "json")
    assert result.exit_code == 2 and "expected a number of at most" in result.stderr


def test_json_report_refuses_nan(tree: Path):
    report = report_of(tree)
    broken = dataclasses.replace(report, effort=dataclasses.replace(report.effort,
                                                                   contingency=float("nan")))
    with pytest.raises(ValueError, match="not JSON compliant"):
        render("json", broken, io.StringIO())


def test_every_json_writer_refuses_nan():
    """Each json.dump/json.dumps call in hipport passes allow_nan=False."""
    missing = []
    for path in sorted((REPO / "hipport").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("dump", "dumps") and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "json":
                flags = {k.arg: k.value for k in node.keywords}
                value = flags.get("allow_nan")
                if not (isinstance(value, ast.Constant) and value.value is False):
                    missing.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not missing


DEEP = 100_000


@pytest.mark.parametrize("name, text, words", [
    ("pyproject.toml", "[tool.hipport]\nreport = " + "[" * DEEP + "]" * DEEP + "\n",
     "malformed TOML: nested too deeply"),
    ("effort.yaml", "report: " + "[" * DEEP + "]" * DEEP + "\n",
     "malformed YAML: nested too deeply"),
])
def test_deeply_nested_configuration_is_a_clear_error(tree: Path, tmp_path: Path, name, text,
                                                      words):
    config = tree / name
    config.write_text(text)
    extra = ("--config", str(config)) if name.endswith(".yaml") else ()
    result = run("report", str(tree), *extra)
    assert result.exit_code == 2 and words in result.stderr, result.output
    assert "internal error" not in result.stderr


def test_deeply_nested_compile_database_is_a_clear_error(tree: Path, tmp_path: Path):
    db = tmp_path / "compile_commands.json"
    db.write_text("[" * DEEP + "]" * DEEP)
    result = run("convert", str(tree / "a.cu"), "-p", str(db))
    assert result.exit_code == 2 and "is not valid JSON: nested too deeply" in result.stderr
    assert "internal error" not in result.stderr
