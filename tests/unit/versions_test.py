"""Target ROCm releases: the default, --rocm-version, and what an entry's
``rocm_version`` range and ``older`` mapping mean for a target."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from hipport.api import convert_source
from hipport.cli import cli
from hipport.errors import MappingFileError
from hipport.settings import Settings
from hipport.table import parse_mapping_file
from hipport.table.schema import Mapping, Status
from hipport.table.versions import (
    DEFAULT_TARGET,
    NEWEST_VERIFIED,
    VERIFIED_RELEASES,
    Availability,
    for_target,
    parse_target,
)


def run(source: str, target: tuple[int, ...] | None) -> tuple[str, list[str]]:
    result = convert_source(source, Settings(rocm_version=target))
    return result.output.decode(), [f.code for f in result.findings if not f.applied]


def test_the_default_target_is_a_verified_release():
    # 7.2 is verified (its headers date every range) and the default: the ROCm
    # users install now (issue 33 §6).
    assert NEWEST_VERIFIED == max(VERIFIED_RELEASES) == (7, 2)
    assert DEFAULT_TARGET == (7, 2) and DEFAULT_TARGET in VERIFIED_RELEASES
    assert Settings().rocm_version == DEFAULT_TARGET


@pytest.mark.parametrize(("text", "release"), [("5.2", (5, 2)), ("6.4", (6, 4)),
                                               ("6.2.1", (6, 2, 1)), ("7.1", (7, 1))])
def test_targets_from_the_oldest_verified_release_on_are_accepted(text, release):
    assert parse_target(text) == release


@pytest.mark.parametrize(("text", "why"), [("5.0", "older than 5.2"), ("4.5", "older than 5.2"),
                                           ("six", "expected a ROCm release"),
                                           ("6", "expected a ROCm release"),
                                           ("6.4-rc1", "expected a ROCm release"),
                                           ("\u0666.\u0664", "expected a ROCm release"),
                                           ("\uff16.\uff14", "expected a ROCm release")])
def test_other_targets_are_refused_with_the_reason(text, why):
    with pytest.raises(ValueError, match=why):
        parse_target(text)


def test_the_command_line_refuses_a_target_older_than_the_oldest_verified(tmp_path):
    (tmp_path / "a.cu").write_text("void f() { cudaFree(0); }\n")
    result = CliRunner().invoke(cli, ["convert", "--diff", "--rocm-version", "5.0",
                                      str(tmp_path / "a.cu")])
    assert result.exit_code == 2
    assert "--rocm-version: ROCm 5.0 is older than 5.2" in result.output


# --- names -----------------------------------------------------------------------

def test_a_name_newer_than_the_target_is_left_unchanged_with_hp905():
    # hipLinkCreate: in the ROCm 6.4 headers only.
    source = "void f(CUlinkState* s) { cuLinkCreate(0, 0, 0, s); }"
    for old in ((5, 2), (5, 7), (6, 2)):
        output, codes = run(source, old)
        assert output == source and codes == ["HP905", "HP905"]
    output, codes = run(source, (6, 4))
    assert output == "void f(hipLinkState_t* s) { hipLinkCreate(0, 0, 0, s); }" and codes == []


def test_hp905_says_what_the_name_needs_and_the_target():
    result = convert_source("void f() { cudaDeviceGraphMemTrim(0); }",
                            Settings(rocm_version=(5, 2)))
    [finding] = result.findings
    assert finding.code == "HP905"
    assert "needs ROCm 5.7 (target 5.2" in finding.finding.message


def test_a_name_with_the_same_spelling_is_checked_against_the_target_too():
    # __float2bfloat16 keeps its name but only hip_bf16.h (ROCm 5.7+) declares it.
    source = "__device__ float g(float x) { return __bfloat162float(__float2bfloat16(x)); }"
    assert run(source, (5, 2))[1] == ["HP905", "HP905"]
    output, codes = run(source, (5, 7))
    assert source in output and codes == []


def test_deprecated_only_from_the_release_that_marks_it():
    # The ROCm 6.4 headers mark hipDevicePrimaryCtxRetain deprecated; 5.7's do not.
    source = "void f(hipCtx_t* c) { cuDevicePrimaryCtxRetain(c, 0); }"
    result = convert_source(source, Settings(rocm_version=(5, 7)))
    assert [f.code for f in result.findings] == ["HP110"]
    result = convert_source(source, Settings(rocm_version=(6, 4)))
    assert [f.code for f in result.findings] == ["HP902"]
    assert b"hipDevicePrimaryCtxRetain" in result.output


def test_no_target_means_no_version_checks():
    source = "void f() { cuLinkDestroy(s); }"
    assert run(source, None) == ("void f() { hipLinkDestroy(s); }", [])


# --- headers -----------------------------------------------------------------------

def test_a_header_with_an_older_counterpart_maps_per_target():
    source = "#include <cuda_gl_interop.h>\n"
    assert run(source, (5, 2)) == ("#include <hip/hip_runtime_api.h>\n", [])
    assert run(source, (5, 7)) == ("#include <hip/hip_gl_interop.h>\n", [])
    assert run(source, (6, 4)) == ("#include <hip/hip_gl_interop.h>\n", [])


def test_a_header_newer_than_the_target_is_left_unchanged_with_hp905():
    source = "#include <cuda_fp8.h>\n#include <cuda_bf16.h>\n"
    assert run(source, (5, 2)) == (source, ["HP905", "HP905"])
    assert run(source, (5, 7)) == ("#include <cuda_fp8.h>\n#include <hip/hip_bf16.h>\n",
                                   ["HP905"])
    assert run(source, (6, 4))[0] == "#include <hip/hip_fp8.h>\n#include <hip/hip_bf16.h>\n"


def test_rocm_72s_fp4_and_fp6_headers_serve_72_targets_only():
    source = "#include <cuda_fp4.h>\n#include <cuda_fp6.h>\n"
    assert run(source, (6, 4)) == (source, ["HP905", "HP905"])
    # Both in one unit do not compile with 7.2's headers (HP513, tests/hazards/features_test.py).
    assert run(source, (7, 2)) == ("#include <hip/hip_fp4.h>\n#include <hip/hip_fp6.h>\n",
                                   ["HP513"])
    assert run("#include <cuda_fp6.h>\n", (7, 2)) == ("#include <hip/hip_fp6.h>\n", [])


# --- for_target on entries the catalogue may hold ------------------------------------

def _entry(**fields: object) -> Mapping:
    base: dict[str, object] = {"cuda": "cudaThing", "hip": "hipThing", "kind": "function",
                               "library": "runtime"}
    base.update(fields)
    return Mapping(**base)  # type: ignore[arg-type]


def test_for_target_follows_the_range():
    entry = _entry(rocm_version=(("added", "5.7"), ("removed", "6.4")))
    assert for_target(entry, (5, 2))[1] is Availability.TOO_NEW
    assert for_target(entry, (5, 7)) == (entry, Availability.AVAILABLE)
    assert for_target(entry, (6, 2)) == (entry, Availability.AVAILABLE)
    assert for_target(entry, (6, 4))[1] is Availability.REMOVED
    assert for_target(entry, None) == (entry, Availability.AVAILABLE)


def test_for_target_takes_the_older_mapping_before_added():
    older = _entry(hip="hipOldThing", rocm_version=(("added", "5.7"),))
    entry = _entry(rocm_version=(("added", "6.4"),), older=older)
    assert for_target(entry, (6, 4)) == (entry, Availability.AVAILABLE)
    assert for_target(entry, (5, 7)) == (older, Availability.AVAILABLE)
    assert for_target(entry, (5, 2)) == (older, Availability.TOO_NEW)


def test_for_target_takes_the_newer_mapping_from_removed():
    newer = _entry(hip="hipThing3", rocm_version=(("added", "7.2"),))
    entry = _entry(hip="hipThing_v2", rocm_version=(("added", "6.4"), ("removed", "7.2")),
                   newer=newer)
    assert for_target(entry, (6, 4)) == (entry, Availability.AVAILABLE)
    assert for_target(entry, (7, 2)) == (newer, Availability.AVAILABLE)
    assert for_target(entry, (8, 0)) == (newer, Availability.AVAILABLE)
    assert for_target(entry, (5, 2))[1] is Availability.TOO_NEW


def test_hipblas_3_names_for_a_7_2_target():
    # hipBLAS 3 (ROCm 7) removed the _v2 API; its plain names take hipComplex
    # and hipDataType, which is what the CUDA code's types become anyway.
    source = "void f() { cublasCgemm(h, a, b); cublasGemmEx(h, a); }\n"
    assert run(source, (6, 4))[0] == \
        "void f() { hipblasCgemm_v2(h, a, b); hipblasGemmEx_v2(h, a); }\n"
    assert run(source, (7, 2))[0] == "void f() { hipblasCgemm(h, a, b); hipblasGemmEx(h, a); }\n"


def test_a_name_rocm_is_too_old_for_keeps_its_polyfill():
    # hipStreamSetAttribute is new in 7.2; for 6.4 the polyfill header's
    # fallback stands in, as it did when no release had the name.
    out, codes = run("void f(cudaStream_t s, cudaStreamAttrValue* v) { "
                     "cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, v); }\n",
                     (6, 4))
    assert "cudaStreamSetAttribute(" in out and "HP905" not in codes
    out, codes = run("void f(cudaStream_t s) { cudaStreamSetAttribute(s, a, v); }\n", (7, 2))
    assert "hipStreamSetAttribute(" in out


def test_for_target_leaves_unsupported_entries_alone():
    entry = _entry(hip=None, status=Status.UNSUPPORTED, rocm_version=(("added", "6.4"),))
    assert for_target(entry, (5, 2)) == (entry, Availability.AVAILABLE)


# --- the `older` key ------------------------------------------------------------------

HEADER = "schema: hipport-mappings/1\nlibrary: runtime\nentries:\n"


def test_older_is_read_with_its_own_range():
    [entry] = parse_mapping_file(HEADER + """\
- cuda: cudaThing
  hip: hipThing
  kind: function
  rocm_version: {added: '6.4'}
  older: {hip: hipOldThing, note: before 6.4, rocm_version: {added: '5.7'}}
""", "m.yaml")
    assert entry.older is not None
    assert (entry.older.hip, entry.older.note, entry.older.rocm_added) == \
        ("hipOldThing", "before 6.4", "5.7")
    assert (entry.older.cuda, entry.older.kind, entry.older.older) == ("cudaThing", "function",
                                                                       None)


def test_newer_starts_where_the_entry_was_removed():
    [entry] = parse_mapping_file(HEADER + """\
- cuda: cudaThing
  hip: hipThing_v2
  kind: function
  rocm_version: {added: '6.4', removed: '7.2'}
  newer: {hip: hipThing}
""", "m.yaml")
    assert entry.newer is not None
    assert (entry.newer.hip, entry.newer.rocm_added, entry.newer.newer) == ("hipThing", "7.2",
                                                                           None)


@pytest.mark.parametrize(("fields", "message"), [
    ("  newer: {hip: hipNew}\n", "entries[0].newer: only an entry with a 'hip' name and a "
                                  "rocm_version.removed"),
    ("  rocm_version: {removed: '7.2'}\n  newer: {hip: hipNew, rocm_version: {added: '7.0'}}\n",
     "must be the entry's rocm_version.removed (7.2)"),
    ("  rocm_version: {removed: '7.2'}\n  newer: {hip: hipNew, colour: red}\n",
     "entries[0].newer.colour: unknown key"),
])
def test_a_bad_newer_names_the_key(fields, message):
    text = HEADER + "- cuda: cudaThing\n  hip: hipThing\n  kind: function\n" + fields
    with pytest.raises(MappingFileError, match=re.escape(message)):
        parse_mapping_file(text, "m.yaml")


@pytest.mark.parametrize(("fields", "message"), [
    ("  older: {hip: hipOldThing}\n", "entries[0].older: only an entry with a 'hip' name and a "
                                      "rocm_version.added"),
    ("  rocm_version: {added: '6.4'}\n  older: {note: x}\n", "missing required key 'hip'"),
    ("  rocm_version: {added: '6.4'}\n  older: {hip: hipOld, colour: red}\n",
     "entries[0].older.colour: unknown key"),
    ("  rocm_version: {added: '6.4'}\n  older: {hip: hipOld, rocm_version: {added: '6.4'}}\n",
     "must be older than the entry's own"),
    ("  rocm_version: {added: '6.4'}\n  older: {hip: 'two words'}\n", "expected a C/C++ name"),
])
def test_a_bad_older_names_the_key(fields, message):
    text = HEADER + "- cuda: cudaThing\n  hip: hipThing\n  kind: function\n" + fields
    with pytest.raises(MappingFileError, match=re.escape(message)):
        parse_mapping_file(text, "m.yaml")
