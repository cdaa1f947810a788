"""hipport, tools and benchmarks are type-checked in strict mode, and ruff
finds nothing (settings in pyproject.toml): the checks CI and pre-commit run."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_mypy_strict_passes():
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_passes():
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "hipport", "tests", "tools",
                           "benchmarks"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
