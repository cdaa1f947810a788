"""`hipport check --policy compat`: a CUDA name the compat header does not
map fails, with the fix (re-run convert --strategy compat)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hipport.check.session import CheckRequest, run_check
from hipport.cli import cli
from hipport.delivery import Mode
from tests.compat.helpers import compat_tree
from tests.conftest import REPO


def _violations(root: Path) -> list[str]:
    run = run_check(CheckRequest((root,), policy="compat", no_baseline=True, jobs=1))
    assert run.verdict is not None
    return [v.code for v in run.verdict.new]


def test_a_name_added_since_the_header_fails_until_it_is_regenerated(tmp_path: Path):
    unit = tmp_path / "k.cu"
    unit.write_text("void f(void *p) { cudaFree(p); }\n")
    compat_tree(tmp_path, mode=Mode.IN_PLACE)
    assert _violations(tmp_path) == []
    unit.write_text(unit.read_text() + "void g(float **p) { cudaMalloc(p, 4); }\n")
    assert _violations(tmp_path) == ["HP311"]
    compat_tree(tmp_path, mode=Mode.IN_PLACE)
    assert _violations(tmp_path) == []


def test_without_a_header_every_mapped_name_fails(tmp_path: Path):
    (tmp_path / "k.cu").write_text("void f(void *p) { cudaFree(p); }\nint cudaLike;\n")
    assert _violations(tmp_path) == ["HP311"]


# ------------------------------------------------- relative names (pre-commit) --
def _hook_command() -> list[str]:
    """The hook as .pre-commit-hooks.yaml declares it, with the compat policy
    as docs/single-source.md tells a project to add it (`args`)."""
    import yaml

    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    entry = next(h["entry"] for h in hooks if h["id"] == "hipport-check").split()
    assert entry[0] == "hipport"
    return [*entry[1:], "--policy", "compat"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository: src/a.cu and src/sub/b.cu, converted with `convert src
    --strategy compat`."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "a.cu").write_text("void f(void *p) { cudaFree(p); }\n")
    (tmp_path / "src" / "sub" / "b.cu").write_text("void g(void *p) { cudaFreeHost(p); }\n")
    compat_tree(tmp_path / "src", mode=Mode.IN_PLACE)
    return tmp_path


def _hook(cwd: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> Result:
    monkeypatch.chdir(cwd)
    return CliRunner().invoke(cli, [*_hook_command(), *args])


@pytest.mark.parametrize("where, files", [
    pytest.param(".", ["src/a.cu", "src/sub/b.cu"], id="repository-root"),
    pytest.param("src", ["a.cu", "sub/b.cu"], id="tree"),
    pytest.param("src/sub", ["b.cu", "../a.cu"], id="subfolder"),
    pytest.param(".", ["src"], id="relative-folder"),
    pytest.param("src", ["."], id="dot"),
])
def test_the_hook_finds_the_header_from_relative_names(repo: Path, where: str,
                                                       files: list[str],
                                                       monkeypatch: pytest.MonkeyPatch):
    result = _hook(repo / where, monkeypatch, *files)
    assert result.exit_code == 0, result.output
    (repo / "src" / "sub" / "b.cu").write_text("void g(float **p) { cudaMalloc(p, 4); }\n")
    result = _hook(repo / where, monkeypatch, *files)
    assert result.exit_code == 1, result.output
    assert "`cudaMalloc` is not mapped by " in result.output
    shown = result.output.split("is not mapped by ")[1].split(";")[0]
    assert (Path.cwd() / shown).resolve() == repo / "src" / "hip_compat.h"
    assert "cudaFree`" not in result.output  # the names it maps are found


def test_a_relative_compat_header_is_relative_to_the_current_folder(
        repo: Path, monkeypatch: pytest.MonkeyPatch):
    (repo / "src" / "hip_compat.h").rename(repo / "compat.h")
    result = _hook(repo, monkeypatch, "--compat-header", "compat.h", "src/a.cu")
    assert result.exit_code == 0, result.output
    result = _hook(repo / "src", monkeypatch, "--compat-header", "../compat.h", "a.cu")
    assert result.exit_code == 0, result.output
