"""`hipport check --policy compat`: a CUDA name the compat header does not
map fails, with the fix (re-run convert --strategy compat)."""
from __future__ import annotations

from pathlib import Path

from hipport.check.session import CheckRequest, run_check
from hipport.runner import Mode
from tests.compat.helpers import compat_tree


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
