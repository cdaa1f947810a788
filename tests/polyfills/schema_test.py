"""The polyfill files' schema: the bundled files are valid, and a bad file
is refused with its file, line and key path, never a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hipport.cli import cli
from hipport.errors import MappingFileError
from hipport.polyfills import Exactness, bundled_polyfills, parse_files, parse_polyfill_file
from hipport.table import bundled_table

REPO = Path(__file__).resolve().parents[2]

GOOD = """\
schema: hipport-polyfills/1
family: demo
title: Demo
fallbacks:
  - id: helper
    names: []
    exactness: exact
    semantics: A helper.
    cost: none.
    rocm: {real: none}
    context: device
    finding: helpers.
    code: |
      namespace hipport_polyfill { inline int twice(int x) { return 2 * x; } }
  - id: demo-fn
    names:
      - {cuda: __demo, kind: device_function}
    exactness: hint-dropped
    semantics: Twice the value.
    cost: one add.
    rocm: {real: "6.2", needs: "5.7"}
    context: device
    requires: [helper]
    includes: [hip/hip_bf16.h]
    finding: twice.
    code: |
      __device__ inline int __demo(int x) { return hipport_polyfill::twice(x); }
"""


def test_a_good_file_is_read():
    family = parse_polyfill_file(GOOD, "demo.yaml")
    helper, demo = family.fallbacks
    assert (family.id, family.title, helper.names) == ("demo", "Demo", ())
    assert demo.exactness is Exactness.HINT_DROPPED and demo.requires == ("helper",)
    assert (demo.rocm.real, demo.rocm.needs, demo.includes) == ("6.2", "5.7", ("hip/hip_bf16.h",))
    assert demo.origin == "demo.yaml:15"
    assert demo.rocm.guard() == "HIP_VERSION >= 50700000 && HIP_VERSION < 60200000"


def test_a_fallback_beside_the_real_api_tests_where_rocm_declares_it():
    beside = GOOD.replace('rocm: {real: "6.2", needs: "5.7"}',
                          'rocm: {real: "7.2", when: "!defined(X)", beside: true}').replace(
        "__device__ inline int __demo",
        "#if !HIPPORT_ROCM_HAS_DEMO_FN\n      __device__ inline int __demo")
    beside += "      #endif\n"
    demo = parse_polyfill_file(beside, "demo.yaml").fallbacks[1]
    assert demo.rocm.beside and demo.rocm.declared() == "HIP_VERSION >= 70200000 && (!defined(X))"
    assert demo.rocm.guard() is None  # it stays: its code steps aside by itself
    assert not demo.rocm.native_in("7.2")


@pytest.mark.parametrize("old, new, message", [
    ("family: demo\n", "family: demo\ncolour: red\n",
     ":3: (top).colour: unknown key (allowed: fallbacks, family, schema, title)"),
    ("schema: hipport-polyfills/1", "schema: hipport-mappings/1",
     ":1: schema: expected 'hipport-polyfills/1'; got 'hipport-mappings/1'"),
    ("title: Demo\n", "", ":1: (top): missing required key 'title'"),
    ("    cost: one add.\n", "    cost: one add.\n    speed: fast\n",
     ":21: fallbacks[1].speed: unknown key (allowed: code, context, cost, exactness, finding, "
     "id, includes, names, requires, rocm, semantics)"),
    ("exactness: hint-dropped", "exactness: close",
     ":18: fallbacks[1].exactness: expected one of exact, hint-dropped, slower, approximate; "
     "got 'close'"),
    ("id: demo-fn", "id: Demo_Fn",
     ":15: fallbacks[1].id: expected lower-case words joined by '-', got 'Demo_Fn'"),
    ("{cuda: __demo, kind: device_function}", "{cuda: __demo, kind: gadget}",
     ":17: fallbacks[1].names[0].kind: expected one of function, type, enum"),
    ("{cuda: __demo, kind: device_function}", "{cuda: __demo, knd: device_function}",
     ":17: fallbacks[1].names[0].knd: unknown key (allowed: cuda, kind, overloads)"),
    ("{cuda: __demo, kind: device_function}", "{cuda: __dmeo, kind: device_function}",
     ":17: fallbacks[1].names[0]: __dmeo does not appear in the fallback's code"),
    ("{cuda: __demo, kind: device_function}", "{cuda: 'a b', kind: device_function}",
     ":17: fallbacks[1].names[0].cuda: expected a C/C++ name"),
    ("{cuda: __demo, kind: device_function}",
     "{cuda: __demo, kind: type, overloads: hipDemo}",
     ":17: fallbacks[1].names[0].overloads: only a function can overload its HIP counterpart"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {needs: "5.7"}',
     ":21: fallbacks[1].rocm: missing required key 'real'"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "six"}',
     ":21: fallbacks[1].rocm.real: expected a ROCm release such as 6.2, got 'six'"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "\u0666.\u0662"}',
     ":21: fallbacks[1].rocm.real: expected a ROCm release such as 6.2, got '\u0666.\u0662'"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "6.2", needs: "6.4"}',
     ":21: fallbacks[1].rocm.needs: must be older than the release with the real API (6.2)"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: none, when: "defined(X)"}',
     ":21: fallbacks[1].rocm.when: a condition needs the release that declares the API"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: none, beside: true}',
     ":21: fallbacks[1].rocm.beside: a fallback beside the real API needs the release that "
     "declares it ('real')"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "7.2", beside: yes please}',
     ":21: fallbacks[1].rocm.beside: expected true or false"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "7.2", beside: true}',
     ":21: fallbacks[1].rocm.beside: the code must test HIPPORT_ROCM_HAS_DEMO_FN (1 where ROCm "
     "declares the real API)"),
    ("context: device\n    requires", "context: gpu\n    requires",
     ":22: fallbacks[1].context: expected one of device, host, host-device; got 'gpu'"),
    ("semantics: Twice the value.", "semantics: Twice the value",
     ":19: fallbacks[1].semantics: expected sentences (ending with '.')"),
    ("requires: [helper]", "requires: helper",
     ":23: fallbacks[1].requires: expected a list"),
    ("includes: [hip/hip_bf16.h]", "includes: [../hip_bf16.h]",
     ":24: fallbacks[1].includes[0]: expected a relative header path"),
    ("  - id: demo-fn", "  - id: helper", ":15: fallbacks[1].id: duplicate id 'helper'"),
    ("    finding: twice.\n", "", ":15: fallbacks[1]: missing required key 'finding'"),
    (GOOD[GOOD.index("fallbacks:"):], "fallbacks: 3\n", ":4: fallbacks: expected a list"),
    ("schema: hipport-polyfills/1\n", "schema: hipport-polyfills/1\n  - [",
     ":2: malformed YAML"),
])
def test_a_bad_file_is_refused_with_its_key_path(old: str, new: str, message: str):
    assert old in GOOD
    with pytest.raises(MappingFileError) as caught:
        parse_polyfill_file(GOOD.replace(old, new, 1), "demo.yaml")
    assert f"demo.yaml{message}" in str(caught.value)


@pytest.mark.parametrize("old, new, message", [
    ("requires: [helper]", "requires: [nothing]",
     "demo.yaml:15: demo-fn: requires 'nothing', which no polyfill file defines"),
    ("exactness: exact", "exactness: approximate",
     "demo.yaml:15: demo-fn: is hint-dropped but requires 'helper', which is only approximate"),
    ('rocm: {real: "6.2", needs: "5.7"}', 'rocm: {real: "6.2"}',
     "demo.yaml:15: demo-fn: requires 'helper', which needs ROCm 5.7; say so in rocm.needs"),
    ("requires: [helper]", "requires: []",
     "demo.yaml:5: helper: has no names and no fallback requires it"),
    ("names: []", "names: []\n    requires: [demo-fn]",
     "demo.yaml:5: helper: requires itself: helper -> demo-fn -> helper"),
])
def test_the_checks_across_fallbacks(old: str, new: str, message: str):
    text = GOOD.replace(old, new, 1)
    if "needs ROCm" in message:
        text = text.replace("rocm: {real: none}", 'rocm: {real: none, needs: "5.7"}', 1)
    with pytest.raises(MappingFileError) as caught:
        parse_files([("demo.yaml", text)])
    assert str(caught.value) == message


def test_ids_and_names_are_unique_across_files():
    other = GOOD.replace("id: helper", "id: helper2").replace("[helper]", "[helper2]")
    with pytest.raises(MappingFileError, match="b.yaml:15: demo-fn: duplicate id 'demo-fn' "
                       r"\(also at a.yaml:15\)"):
        parse_files([("a.yaml", GOOD), ("b.yaml", other)])
    other = other.replace("id: demo-fn", "id: demo-two")
    with pytest.raises(MappingFileError, match="duplicate CUDA name '__demo'"):
        parse_files([("a.yaml", GOOD), ("b.yaml", other)])


def test_the_bundled_files_are_valid_and_stay_out_of_the_catalogue():
    polyfills = bundled_polyfills()
    assert len(list(polyfills)) >= 7
    table = bundled_table()
    assert all(not table.lookup(f.id) for f in polyfills)
    for path in sorted((REPO / "mappings" / "polyfills").glob("*.yaml")):
        assert path.read_text().startswith(("#", "schema: hipport-polyfills/1"))


def test_mappings_validate_reads_polyfill_files(tmp_path: Path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(GOOD)
    bad.write_text(GOOD.replace("cost: one add.", "cost: one add.\n    speed: fast"))
    result = CliRunner().invoke(cli, ["mappings", "validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{good}: 2 fallbacks, valid" in result.output
    assert f"{bad}:21: fallbacks[1].speed: unknown key" in result.output
