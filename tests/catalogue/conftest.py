"""Shared fixtures for the mapping-catalogue tests."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.catalogue import catalogue  # noqa: E402


@pytest.fixture(scope="session")
def docs() -> dict[str, dict]:
    return catalogue.load_documents()


@pytest.fixture(scope="session")
def entries(docs: dict[str, dict]) -> list[catalogue.Located]:
    return catalogue.all_entries(docs)
