"""Configuration files and the effort model they configure."""
from __future__ import annotations

from pathlib import Path

import pytest

from hipport.config import ConfigError, find_config, load_config
from hipport.errors import HipportError
from hipport.report.effort import (
    DEFAULT_PER_API,
    DEFAULT_PER_OCCURRENCE,
    EffortModel,
    load_effort_model,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def model_from(tmp_path: Path, text: str, name: str = ".hipport.toml") -> EffortModel:
    path = write(tmp_path / name, text)
    return load_effort_model(load_config(explicit=path))


def test_found_by_walking_up_from_the_input(tmp_path):
    config = write(tmp_path / "pyproject.toml", "[tool.hipport.report.effort]\ncontingency = 0.5\n")
    src = tmp_path / "src" / "deep"
    src.mkdir(parents=True)
    assert find_config(src) == config
    model = load_effort_model(load_config(src))
    assert model.contingency == 0.5 and model.source == str(config)


def test_pyproject_without_the_tool_table_is_passed_over(tmp_path):
    outer = write(tmp_path / ".hipport.toml", "[report.effort]\ncontingency = 0.1\n")
    write(tmp_path / "inner" / "pyproject.toml", "[project]\nname = 'x'\n")
    assert find_config(tmp_path / "inner") == outer


def test_the_tools_own_file_wins_in_the_same_directory(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.hipport.report.effort]\ncontingency = 0.5\n")
    own = write(tmp_path / ".hipport.toml", "[report.effort]\ncontingency = 0.3\n")
    assert find_config(tmp_path) == own


def test_no_file_gives_defaults(tmp_path):
    model = load_effort_model(load_config(tmp_path / "nothing-here"))
    assert model == EffortModel()


def test_weights_override_defaults_one_by_one(tmp_path):
    model = model_from(tmp_path, """
[report.effort]
per-converted-file = 0.5
[report.effort.per-api]
unsupported = 3
[report.effort.per-finding]
HP401 = 0.25
warning = 0.2
""")
    assert model.per_api["unsupported"] == 3.0
    assert model.per_api["removed"] == DEFAULT_PER_API["removed"]
    assert model.per_converted_file == 0.5
    assert model.finding_weight("HP401") == 0.25
    assert model.finding_weight("HP402") == 0.2  # by severity
    assert model.ledger_days("unsupported", 4) == \
        pytest.approx(3 + 4 * DEFAULT_PER_OCCURRENCE["unsupported"])


def test_yaml_file(tmp_path):
    model = model_from(tmp_path, "report:\n  effort:\n    contingency: 0\n", "effort.yaml")
    assert model.contingency == 0.0


@pytest.mark.parametrize("text, key, words", [
    ("[reprot]\n", "reprot", "unknown key"),
    ("[report.effort]\ncontingncy = 1\n", "report.effort.contingncy", "unknown key"),
    ("[report.effort]\ncontingency = 'lots'\n", "report.effort.contingency", "expected a number"),
    ("[report.effort]\nper-converted-file = -1\n", "report.effort.per-converted-file",
     "at least 0"),
    ("[report.effort]\ncontingency = true\n", "report.effort.contingency", "a boolean"),
    ("[report.effort.per-api]\nmissing = 1\n", "report.effort.per-api.missing",
     "unknown ledger status"),
    ("[report.effort.per-finding]\nHP999 = 1\n", "report.effort.per-finding.HP999",
     "diagnostic code"),
    ("[report]\neffort = 3\n", "report.effort", "expected a table"),
    ("[report.effort]\nhigh-priority = 0.1\nmedium-priority = 0.5\n",
     "report.effort.medium-priority", "must not exceed"),
    ("[report.effort\n", "(file)", "malformed TOML"),
    ("[report.effort.range]\nblocker-low = 2\n", "report.effort.range.blocker-low",
     "at most 1"),
    ("[report.effort.range]\nreview-high = 0.5\n", "report.effort.range.review-high",
     "at least 1"),
    ("[report.effort.range]\nlow = 0.5\n", "report.effort.range.low", "unknown key"),
    ("[report.effort]\nrange = 2\n", "report.effort.range", "expected a table"),
    ("[report.effort]\nper-build-error = -1\n", "report.effort.per-build-error",
     "at least 0"),
])
def test_bad_values_name_the_file_and_key(tmp_path, text, key, words):
    with pytest.raises(ConfigError) as caught:
        model_from(tmp_path, text)
    message = str(caught.value)
    assert isinstance(caught.value, HipportError)
    assert message.startswith(str(tmp_path / ".hipport.toml") + ": " + key + ": "), message
    assert words in message


def test_pyproject_keys_are_named_with_their_full_path(tmp_path):
    with pytest.raises(ConfigError, match=r"pyproject.toml: tool\.hipport\.report\.effort\.x: "):
        model_from(tmp_path, "[tool.hipport.report.effort]\nx = 1\n", "pyproject.toml")


def test_missing_explicit_file(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(explicit=tmp_path / "nope.toml")


def test_assumptions_state_every_weight():
    text = "\n".join(EffortModel().assumptions())
    for status in DEFAULT_PER_API:
        assert status in text
    assert "built-in defaults" in text and "Contingency" not in text  # none by default
    assert "Contingency on top of each figure: 20%" in "\n".join(
        EffortModel(contingency=0.2).assumptions())


def test_the_range_is_configured_per_kind(tmp_path):
    model = model_from(tmp_path, "[report.effort.range]\nblocker-high = 4\nreview-low = 1\n")
    assert model.bounds(1.0, blocker=True) == (0.5, 4.0)
    assert model.bounds(1.0, blocker=False) == (1.0, 2.0)


def test_docs_state_the_defaults():
    """docs/report.md's table of defaults is the model's."""
    import re

    from tests.conftest import REPO

    text = (REPO / "docs" / "report.md").read_text()
    rows = dict(re.findall(r"^\| `([^`]+)`(?: / `[^`]+`)?(?: / `[^`]+`)? \| ([\d. /]+) \|", text,
                           re.MULTILINE))
    model = EffortModel()
    for status in ("unsupported", "removed", "unmapped", "rocm-too-old", "deprecated", "review"):
        assert rows[f"per-api.{status}"] == \
            f"{model.per_api[status]:g} / {model.per_occurrence[status]:g}", status
    assert rows["per-finding.error"] == " / ".join(
        f"{model.per_finding[k]:g}" for k in ("error", "warning", "info"))
    assert rows["per-finding.HP502"] == f"{model.per_finding['HP502']:g}"
    assert rows["per-converted-file"] == f"{model.per_converted_file:g}"
    assert rows["per-build-error"] == \
        f"{model.per_build_error:g} / {model.per_build_error_location:g}"
    assert rows["range.blocker-low"] == \
        f"{model.range['blocker-low']:g} / {model.range['blocker-high']:g}"
