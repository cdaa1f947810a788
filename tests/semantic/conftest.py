"""Semantic-mode tests run against the real libclang (PyPI ``libclang``) and
clang's resource headers (``scripts/setup-toolchain.sh``).  Missing tools
fail the run under CI=true and skip the tests elsewhere."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.errors import HipportError
from hipport.table import load_table
from tests.ci import missing
from tests.toolchain import cuda_include_dirs

CASES = Path(__file__).resolve().parent / "cases"
REPO = Path(__file__).resolve().parents[2]


def make_backend(**options):
    from hipport.parse import get_backend

    options.setdefault("cuda_includes", tuple(str(d) for d in cuda_include_dirs()))
    try:
        return get_backend("semantic", **options)
    except HipportError as exc:
        missing(f"semantic mode unavailable: {exc}")


@pytest.fixture(scope="session")
def semantic():
    return make_backend()


@pytest.fixture(scope="session")
def names():
    return load_table(()).candidates
