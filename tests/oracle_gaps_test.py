"""Every known gap of tests/oracle_gaps.py names a test that exists, on an
oracle that exists, and says why (a renamed test would silently lose its
strict xfail and then fail as an ordinary test, or worse, pass unnoticed)."""
from __future__ import annotations

import re

from tests.oracle_gaps import HIP_52_LEFT_OUT, KNOWN_GAPS
from tests.toolchain import ORACLE_NAMES, REPO_ROOT

_ID = re.compile(r"^(tests/[\w/]+\.py)::(?:\w+::)?(\w+)\[(.+)\]$")


def test_each_gap_names_an_existing_test_on_a_known_oracle():
    for test_id, reason in KNOWN_GAPS.items():
        found = _ID.match(test_id)
        assert found, f"{test_id}: not a parametrised test id"
        path, function, params = found.groups()
        source = (REPO_ROOT / path).read_text()
        assert re.search(rf"^\s*def {function}\(", source, re.M), f"{test_id}: no {function}"
        assert any(name in params for name in ORACLE_NAMES), f"{test_id}: names no oracle"
        assert reason.startswith("issue "), f"{test_id}: the reason names no issue"


def test_the_files_hip_52_leaves_out_exist_and_use_the_fixture():
    for entry in HIP_52_LEFT_OUT:
        path, _, function = entry.partition("::")
        source = (REPO_ROOT / path).read_text()
        assert "hip_oracle" in source, entry
        assert not function or re.search(rf"^def {function}\(.*hip_oracle", source, re.M), entry
