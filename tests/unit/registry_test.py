"""The rule registry: discovery finds every rule module, a name registered
twice is refused, and the mapping schema names exactly the argument rules
that exist."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.rules import argument_rule, argument_rules, file_rule, file_rules
from hipport.rules.registry import WARM_UPS

REPO = Path(__file__).resolve().parents[2]


def test_discovery_registers_every_rule_module():
    names = set(file_rules())
    assert {"renames", "includes", "runtime-include", "kernel-launch"} <= names
    modules = {p.stem for p in (REPO / "hipport" / "rules" / "hazards").glob("*.py")}
    helpers = {"__init__", "nodes", "lanes"}
    assert sum(n.startswith("hazard-") for n in names) == len(modules - helpers)
    assert "hazard-queries" in WARM_UPS


@pytest.mark.parametrize("decorator, name", [(file_rule, "renames"),
                                             (argument_rule, "drop-first-argument")])
def test_a_name_registered_twice_is_refused(decorator, name):
    file_rules()
    with pytest.raises(RuntimeError, match="registered twice"):
        decorator(name)(lambda *args: iter(()))


def test_the_json_schema_names_the_registered_argument_rules():
    schema = json.loads((REPO / "mappings" / "schema.json").read_text())
    enum = schema["$defs"]["entry"]["properties"]["rule"]["enum"]
    assert sorted(enum) == sorted(argument_rules())


def test_a_rules_file_naming_an_unknown_argument_rule_is_refused(tmp_path: Path):
    from hipport.errors import MappingFileError
    from hipport.table import load_table

    rules = tmp_path / "rules.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - {cuda: cudaFoo, hip: hipFoo, kind: function, rule: drop-everything}\n")
    with pytest.raises(MappingFileError, match="drop-first-argument"):
        load_table([str(rules)])
