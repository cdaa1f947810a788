"""Every bundled example converts, and every converted translation unit
compiles with each real HIP compiler for an AMD GPU; the CUDA originals
compile with nvcc, so we know the inputs are valid CUDA."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport import pipeline
from hipport.delivery import Mode
from hipport.jobs import Outcome
from hipport.request import Request
from tests.toolchain import compile_cuda, compile_hip, require_nvcc

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PROGRAMS = sorted(p for p in EXAMPLES.iterdir() if p.is_dir() and any(p.glob("*.cu")))


def convert_tree(src: Path, out: Path) -> list:
    """As `hipport convert SRC -o OUT` does it (generated headers included)."""
    return pipeline.run(Request((src,), Mode.MIRROR, output=out, jobs=1)).results


def test_there_are_at_least_four_examples():
    assert len(PROGRAMS) >= 4


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_converted_example_compiles_with_hipcc(program: Path, tmp_path: Path, hip_oracle):
    results = convert_tree(program, tmp_path)
    assert all(r.outcome is not Outcome.FAILED for r in results), results
    unknown = [(r.display, f.finding.message) for r in results for f in r.findings
               if f.code == "HP900"]
    assert unknown == [], "the catalogue must know every API the examples use"
    units = sorted(tmp_path.rglob("*.cu"))
    assert units
    for unit in units:
        text = unit.read_text()
        assert "cuda_runtime.h" not in text.split("//")[0]
        proc = compile_hip(unit, oracle=hip_oracle)
        assert proc.returncode == 0, f"{unit.name}:\n{proc.stderr[-4000:]}"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
@pytest.mark.slow
def test_original_example_compiles_with_nvcc(program: Path):
    require_nvcc()
    for unit in sorted(program.glob("*.cu")):
        proc = compile_cuda(unit)
        assert proc.returncode == 0, f"{unit.name}:\n{proc.stderr[-4000:]}"
