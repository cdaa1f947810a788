"""Which codes fail: policies, fail-on / ignore prefixes, and the config table."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.check.policy import (
    FailurePolicy,
    Policy,
    default_selects,
    load_check_config,
    parse_prefixes,
)
from hipport.config import ConfigError, load_config
from hipport.errors import UsageError


@pytest.mark.parametrize("code", ["HP900", "HP901", "HP903", "HP905", "HP502"])
def test_no_unmapped_fails_on_ledger_and_error_hazards(code: str):
    assert default_selects(Policy.NO_UNMAPPED, code)


@pytest.mark.parametrize("code", ["HP101", "HP201", "HP302", "HP902", "HP904", "HP401",
                                  "HP420", "HP001", "HP006", "HP655", "HP303"])
def test_no_unmapped_passes_convertible_and_warning_codes(code: str):
    assert not default_selects(Policy.NO_UNMAPPED, code)


@pytest.mark.parametrize("code, fails", [
    ("HP101", True), ("HP110", True), ("HP201", True), ("HP302", True), ("HP304", True),
    ("HP901", True), ("HP900", True), ("HP502", True),
    ("HP303", False), ("HP306", False), ("HP401", False), ("HP001", False), ("HP601", False),
])
def test_hip_only_fails_on_every_cuda_reference(code: str, fails: bool):
    assert default_selects(Policy.HIP_ONLY, code) is fails


def test_fail_on_replaces_and_ignore_removes():
    selection = FailurePolicy(Policy.NO_UNMAPPED, fail_on=("HP9", "HP401"), ignore=("HP904",))
    assert selection.fails("HP902") and selection.fails("HP401")
    assert not selection.fails("HP904") and not selection.fails("HP502")
    assert not FailurePolicy(ignore=("HP90",)).fails("HP901")
    assert FailurePolicy(ignore=("HP90",)).fails("HP502")


def test_parse_prefixes():
    assert parse_prefixes(["hp9, HP502", "HP40"], "--fail-on") == ("HP9", "HP502", "HP40")
    with pytest.raises(UsageError, match="--fail-on: 'E501' is not a code"):
        parse_prefixes(["E501"], "--fail-on")
    with pytest.raises(UsageError, match="unknown code 'HP999'"):
        parse_prefixes(["HP999"], "--ignore")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_config_table_is_read(tmp_path: Path):
    write(tmp_path, "pyproject.toml", '[tool.hipport.check]\npolicy = "hip-only"\n'
          'fail-on = ["HP9"]\nignore = ["HP904"]\nbaseline = "ci/base.json"\n'
          "report-unused-suppressions = true\n")
    config = load_check_config(load_config(tmp_path))
    assert config.failing == FailurePolicy(Policy.HIP_ONLY, ("HP9",), ("HP904",))
    assert config.baseline == tmp_path / "ci" / "base.json"
    assert config.report_unused_suppressions and config.root == tmp_path


def test_defaults_without_config(tmp_path: Path):
    config = load_check_config(load_config(tmp_path))
    assert config.failing == FailurePolicy() and config.baseline is None


@pytest.mark.parametrize("text, key, message", [
    ('[check]\npolicy = "strict"\n', "check.policy", "expected one of no-unmapped, hip-only"),
    ('[check]\nfail_on = ["HP9"]\n', "check.fail_on", "unknown key"),
    ('[check]\nfail-on = "HP9"\n', "check.fail-on", "expected a list of non-empty strings"),
    ('[check]\nignore = ["X1"]\n', "check.ignore", "'X1' is not a code"),
    ("[check]\nreport-unused-suppressions = 1\n", "check.report-unused-suppressions",
     "expected true or false"),
    ('check = "x"\n', "check", "expected a table"),
])
def test_config_errors_name_file_and_key(tmp_path: Path, text: str, key: str, message: str):
    path = write(tmp_path, ".hipport.toml", text)
    with pytest.raises(ConfigError) as info:
        load_check_config(load_config(tmp_path))
    assert info.value.key == key and info.value.path == str(path)
    assert message in str(info.value)
