"""The package is type-checked in strict mode (settings in pyproject.toml)."""
from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def test_mypy_strict_passes():
    proc = subprocess.run([sys.executable, "-m", "mypy", "hipport"], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
