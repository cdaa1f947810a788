"""One answer to "is this CI?", and what a missing tool means there.

CI (`.ci/run`, with `CI=true`) installs every tool the tests need, so a
missing one is a failure there; on a contributor's machine the test is
skipped with the reason."""
from __future__ import annotations

import os
from typing import NoReturn

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def missing(message: str) -> NoReturn:
    """Fail (in CI) or skip (elsewhere) a test whose tool or input is absent."""
    if in_ci():
        pytest.fail(f"{message} (required when CI is set)", pytrace=False)
    pytest.skip(message)
