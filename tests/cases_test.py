"""Golden pairs: tests/cases/**/X.cu converts to X.hip.cu (a missing
X.hip.cu means the file must come out unchanged).  A first line
`// hipport-flags: --launch-syntax=hip --unsafe-fixes --rocm-version=5.2`
(or `--roc`) sets options.  Every expected output is also compiled with the HIP compilers
(tests/toolchain.py) it is for: a case for one ROCm release
(`--rocm-version=X.Y`) with that release's compiler only, any other case with
each of them; a `// hipport-oracles: hip-5.2 rocm-6.4` line among the first
lines names them instead."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.settings import Settings
from hipport.table.versions import parse_target
from tests.toolchain import ORACLE_NAMES, compile_hip, require_hip_oracle

CASES = Path(__file__).resolve().parent / "cases"
INPUTS = sorted(p for p in CASES.rglob("*.cu") if not p.name.endswith(".hip.cu"))
FLAGS, ORACLES = "// hipport-flags:", "// hipport-oracles:"


def _directive(source: bytes, prefix: str) -> list[str] | None:
    """The words after ``prefix`` on one of the first lines, if any."""
    for line in source.decode("utf-8", "replace").splitlines()[:3]:
        if line.startswith(prefix):
            return line[len(prefix):].split()
    return None


def settings_for(source: bytes) -> Settings:
    options: dict[str, object] = {}
    for flag in _directive(source, FLAGS) or ():
        if flag == "--launch-syntax=hip":
            options["launch_syntax"] = "hip"
        elif flag == "--unsafe-fixes":
            options["unsafe_fixes"] = True
        elif flag == "--roc":
            options["roc"] = True
        elif flag.startswith("--rocm-version="):
            options["rocm_version"] = parse_target(flag.split("=", 1)[1])
        else:
            raise AssertionError(f"unknown flag {flag}")
    return Settings(**options)


def oracles_for(case: Path) -> list[str]:
    """Names of the oracles that compile ``case``'s expected output: those it
    names, else the release its ``--rocm-version`` converts for, else those of
    the default target (7.2) and the release before it (6.4). HIP 5.2
    compiles the cases converted for it: output made for ROCm 7.2 is no
    promise for 5.2, and each compile there cost the suite (issue 33 §8)."""
    source = case.read_bytes()
    named = _directive(source, ORACLES)
    if named is not None:
        unknown = sorted(set(named) - set(ORACLE_NAMES))
        assert not unknown, f"{case}: unknown oracles {unknown} (known: {ORACLE_NAMES})"
        return named
    target = next((f.split("=", 1)[1] for f in _directive(source, FLAGS) or ()
                   if f.startswith("--rocm-version=")), None)
    if target is None:
        return [name for name in ORACLE_NAMES if name != "hip-5.2"]
    return [name for name in ORACLE_NAMES if name.rsplit("-", 1)[1] == target]


def expected_path(case: Path) -> Path:
    return case.with_name(case.name[:-3] + ".hip.cu")


def case_id(case: Path) -> str:
    return str(case.relative_to(CASES))


def test_cases_exist():
    assert len(INPUTS) >= 6


@pytest.mark.parametrize("case", INPUTS, ids=case_id)
def test_every_case_is_compiled_by_some_oracle(case: Path):
    assert oracles_for(case), f"{case_id(case)}: no HIP oracle for its --rocm-version; " \
        f"name them in a `{ORACLES}` line ({', '.join(ORACLE_NAMES)})"


@pytest.mark.parametrize("case", INPUTS, ids=case_id)
def test_golden(case: Path):
    source = case.read_bytes()
    expected_file = expected_path(case)
    expected = expected_file.read_bytes() if expected_file.exists() else source
    settings = settings_for(source)
    name = case.name  # a .cu file: nvcc's implicit runtime include matters
    assert convert_source(source, settings, name=name).output.decode() == expected.decode()
    assert convert_source(expected, settings, name=name).output == expected  # idempotent


@pytest.mark.slow
@pytest.mark.parametrize(("case", "oracle"),
                         [(case, name) for case in INPUTS for name in oracles_for(case)],
                         ids=lambda v: case_id(v) if isinstance(v, Path) else v)
def test_expected_output_compiles_with_hipcc(case: Path, oracle: str):
    target = expected_path(case) if expected_path(case).exists() else case
    proc = compile_hip(target, extra_args=["-I", str(case.parent)],
                       oracle=require_hip_oracle(oracle))
    assert proc.returncode == 0, proc.stderr[-3000:]
