"""The rule registry: discovery finds every rule module, a name registered
twice is refused, and the mapping schema names exactly the argument rules
that exist."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hipport.rules import (
    RuleRole,
    argument_rule,
    argument_rules,
    file_rule,
    file_rules,
    stability_rules,
)
from hipport.rules.registry import ENTRY_ARGUMENT_RULES, WARM_UPS
from hipport.table.schema import CAST_RULE
from tests.compat.header_test import BY_VALUE

REPO = Path(__file__).resolve().parents[2]


def test_discovery_registers_every_rule_module():
    names = set(file_rules())
    assert {"renames", "includes", "runtime-include", "kernel-launch"} <= names
    modules = {p.stem for p in (REPO / "hipport" / "rules" / "hazards").glob("*.py")}
    helpers = {"__init__", "nodes", "lanes"}
    assert sum(n.startswith("hazard-") for n in names) == len(modules - helpers)
    assert "hazard-queries" in WARM_UPS


@pytest.mark.parametrize("register", [
    pytest.param(lambda: file_rule("renames", codes=("HP101",)), id="file-rule"),
    pytest.param(lambda: argument_rule("drop-first-argument"), id="argument-rule"),
])
def test_a_name_registered_twice_is_refused(register):
    file_rules()
    with pytest.raises(RuntimeError, match="registered twice"):
        register()(lambda *args: iter(()))


def test_a_rule_declaring_a_code_that_does_not_exist_is_refused():
    with pytest.raises(RuntimeError, match="declares unknown codes: HP999"):
        file_rule("a-new-rule", codes=("HP101", "HP999"))


def test_the_stability_pass_runs_the_rules_that_rewrite():
    assert stability_rules() == {"renames", "includes", "runtime-include", "kernel-launch",
                                 "launch-chevrons", "header-guards", "cuda-version",
                                 "implicit-includes", "cuda-arch"}
    assert all(file_rules()[name].role is RuleRole.HAZARD
               for name in file_rules() if name.startswith("hazard-"))


def test_every_argument_rule_a_macro_can_say_has_one():
    """Each argument rule's shape gives the compat header a macro; the
    ones without a shape are MIOpen's that read an argument's value or move
    arguments, and the SpSM solve's that reads another call
    (tests/compat/header_test.py names them)."""
    from hipport.compat.header import macro

    for rule in argument_rules().values():
        if rule.shape is None:
            assert rule.name in BY_VALUE, rule.name
            continue
        assert macro(rule.shape, "cudaX", "hipX").startswith("#define cudaX("), rule.name


def test_the_json_schema_names_the_registered_argument_rules():
    schema = json.loads((REPO / "mappings" / "schema.json").read_text())
    enum = schema["$defs"]["entry"]["properties"]["rule"]["enum"]
    # ... and the entry rules a `rule:` names (cast-arguments comes with `casts:`).
    named = set(argument_rules()) | (set(ENTRY_ARGUMENT_RULES) - {CAST_RULE})
    assert sorted(enum) == sorted(named)


def test_a_rules_file_naming_an_unknown_argument_rule_is_refused(tmp_path: Path):
    from hipport.errors import MappingFileError
    from hipport.table import load_table

    rules = tmp_path / "rules.yaml"
    rules.write_text("schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"
                     "  - {cuda: cudaFoo, hip: hipFoo, kind: function, rule: drop-everything}\n")
    with pytest.raises(MappingFileError, match="drop-first-argument"):
        load_table([str(rules)])


def _sources() -> list[Path]:
    cases = [p for p in (REPO / "tests" / "cases").rglob("*") if p.suffix in (".cu", ".cuh")
             and not p.name.endswith(".hip.cu")]
    examples = [p for p in (REPO / "examples").rglob("*") if p.suffix in (".cu", ".cuh", ".cpp")
                and "hip" not in p.name]
    return sorted(cases + examples)


@pytest.mark.parametrize("rocm", [(5, 2), (6, 4)], ids=["rocm-5.2", "rocm-6.4"])
def test_every_finding_of_a_rule_carries_a_code_the_rule_declares(rocm):
    from hipport.parse import get_backend
    from hipport.rules import Context
    from hipport.settings import Settings
    from hipport.table import load_table

    table, backend = load_table(()), get_backend("syntax")
    settings = Settings(rocm_version=rocm, unsafe_fixes=True)
    seen: dict[str, set[str]] = {}
    for path in _sources():
        data = path.read_bytes()
        ctx = Context(data, backend.analyze(data, table.candidates, path, None), table,
                      settings, path)
        for rule in file_rules().values():
            codes = {f.code for f in rule(ctx)}
            assert codes <= rule.codes, f"{rule.name} on {path}: {sorted(codes - rule.codes)}"
            seen.setdefault(rule.name, set()).update(codes)
    # The sources exercise most rules: a rule that never fired proves nothing.
    assert sum(bool(codes) for codes in seen.values()) >= 20
