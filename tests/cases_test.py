"""Golden pairs: tests/cases/**/X.cu converts to X.hip.cu (a missing
X.hip.cu means the file must come out unchanged).  A first line
`// hipport-flags: --launch-syntax=hip --unsafe-fixes` sets options.  Every
expected output is also compiled with each HIP compiler (tests/toolchain.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from tests.toolchain import compile_hip

CASES = Path(__file__).resolve().parent / "cases"
INPUTS = sorted(p for p in CASES.rglob("*.cu") if not p.name.endswith(".hip.cu"))


def settings_for(source: bytes) -> Settings:
    first = source.split(b"\n", 1)[0].decode()
    options: dict[str, object] = {}
    if first.startswith("// hipport-flags:"):
        for flag in first.split(":", 1)[1].split():
            if flag == "--launch-syntax=hip":
                options["launch_syntax"] = "hip"
            elif flag == "--unsafe-fixes":
                options["unsafe_fixes"] = True
            else:
                raise AssertionError(f"unknown flag {flag}")
    return Settings(**options)


def expected_path(case: Path) -> Path:
    return case.with_name(case.name[:-3] + ".hip.cu")


def case_id(case: Path) -> str:
    return str(case.relative_to(CASES))


def test_cases_exist():
    assert len(INPUTS) >= 6


@pytest.mark.parametrize("case", INPUTS, ids=case_id)
def test_golden(case: Path):
    source = case.read_bytes()
    expected_file = expected_path(case)
    expected = expected_file.read_bytes() if expected_file.exists() else source
    settings = settings_for(source)
    assert convert_source(source, settings).output.decode() == expected.decode()
    assert convert_source(expected, settings).output == expected  # idempotent


@pytest.mark.parametrize("case", INPUTS, ids=case_id)
def test_expected_output_compiles_with_hipcc(case: Path, hip_oracle):
    target = expected_path(case) if expected_path(case).exists() else case
    proc = compile_hip(target, extra_args=["-I", str(case.parent)], oracle=hip_oracle)
    assert proc.returncode == 0, proc.stderr[-3000:]
