from __future__ import annotations

from pathlib import Path

import pytest

from hipport.api import convert_source
from hipport.settings import Settings

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def convert():
    def run(source: str | bytes, **settings) -> bytes:
        return convert_source(source, Settings(**settings)).output
    return run
