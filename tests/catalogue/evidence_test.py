"""How tools/catalogue reads header evidence: deprecation marks, gated
declarations, and the range of a name across header sets (built here, so
nothing depends on the machine's HIP)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tools.catalogue.evidence import Evidence, Range
from tools.catalogue.hip_headers import (
    HeaderSet,
    deprecated_names,
    gated_names,
    hip_release,
    strip_comments,
)
from tools.catalogue.refresh import kept_notes


@pytest.mark.parametrize(("text", "names"), [
    ('HIP_DEPRECATED("use hipHostMalloc instead")\nhipError_t hipMallocHost(void** p);',
     {"hipMallocHost"}),
    ("DEPRECATED(DEPRECATED_MSG) hipError_t hipBindTexture(size_t* o);", {"hipBindTexture"}),
    ('[[deprecated("old")]] int legacy(int);', {"legacy"}),
    ("__attribute__((deprecated)) void gone();", {"gone"}),
    ("HIPSPARSE_DEPRECATED_MSG(\"x (y)\") hipsparseStatus_t hipsparseXold(int);",
     {"hipsparseXold"}),
    # look-alikes: the macro's own definition, an undeprecated declaration
    ('#define HIP_DEPRECATED(msg) __attribute__ ((deprecated(msg)))\nint fine(int);', set()),
    ("hipError_t hipMalloc(void** p, size_t n); // DEPRECATED in comments only", set()),
])
def test_deprecated_names(text, names):
    assert deprecated_names(strip_comments(text)) == names


def test_gated_names_are_those_only_inside_the_gate():
    text = """\
int always();
#ifdef HIP_ENABLE_WARP_SYNC_BUILTINS
unsigned long long __activemask();
int always();
#if defined(X)
int nested_gated();
#endif
#else
int in_the_else();
#endif
#if defined(MIOPEN_BETA_API) && 1
typedef enum { MIOPEN_ATTR_X = 1 } miopenBackendAttributeName_t;
#endif
#ifndef MIOPEN_BETA_API
int not_gated();
#endif
"""
    warp, beta = "HIP_ENABLE_WARP_SYNC_BUILTINS", "MIOPEN_BETA_API"
    assert gated_names(text) == {
        "__activemask": warp, "unsigned": warp, "long": warp, "nested_gated": warp,
        "typedef": beta, "enum": beta, "MIOPEN_ATTR_X": beta,
        "miopenBackendAttributeName_t": beta}


# --- ranges ------------------------------------------------------------------------

def test_range_of_a_name_every_release_has_is_empty():
    found = Range(seen=((5, 2), (5, 7), (6, 4)), lacking=(), unpackaged=())
    assert (found.added, found.removed, found.versions(), found.note("hipX")) == \
        (None, None, {}, None)


def test_range_added_removed_and_deprecated():
    found = Range(seen=((5, 7),), lacking=((5, 2), (6, 4)), unpackaged=(), deprecated=(5, 7))
    assert found.versions() == {"added": "5.7", "removed": "6.4", "deprecated": "5.7"}
    assert found.note("hipX") == ("not declared in the ROCm 5.2 headers checked; present in "
                                  "ROCm 5.7; gone from the ROCm 6.4 headers; hipX is marked "
                                  "deprecated in the ROCm 5.7 headers")


def test_a_release_without_the_library_counts_as_lacking_the_name_but_not_as_removal():
    found = Range(seen=((6, 4),), lacking=(), unpackaged=((5, 2), (5, 7)))
    assert found.versions() == {"added": "6.4"}
    assert "(library not packaged)" in (found.note("miopenCreate") or "")
    later_gap = Range(seen=((5, 2),), lacking=(), unpackaged=((6, 4),))
    assert later_gap.versions() == {}


def test_unknown_releases_neither_add_nor_remove():
    # Clang-declared math: the 5.7 set has no Clang headers to tell.
    found = Range(seen=((5, 2), (6, 4)), lacking=(), unpackaged=(), unknown=((5, 7),))
    assert found.versions() == {} and found.state((5, 7)) == "unknown"


def _root(tmp: Path, release: str, headers: dict[str, str]) -> Path:
    major, minor = release.split(".")
    inc = tmp / release / "usr" / "include"
    (inc / "hip").mkdir(parents=True)
    (inc / "hip" / "hip_version.h").write_text(
        f"#define HIP_VERSION_MAJOR {major}\n#define HIP_VERSION_MINOR {minor}\n")
    for rel, text in headers.items():
        (inc / rel).parent.mkdir(parents=True, exist_ok=True)
        (inc / rel).write_text(text)
    return inc


def test_evidence_across_header_sets(tmp_path):
    old = _root(tmp_path, "5.2", {
        "hip/hip_runtime_api.h": "hipError_t hipA(); hipError_t hipGone();\n"
                                 'HIP_DEPRECATED("x") hipError_t hipC();\n',
        "hip/amd_detail/hip_prof_str.h": "hipError_t hipOnlyTraced();\n"})
    new = _root(tmp_path, "6.4", {
        "hip/hip_runtime_api.h": "hipError_t hipA(); hipError_t hipB(); hipError_t hipC();\n",
        "hip/hip_gl_interop.h": "typedef unsigned GLuint;\n"})
    assert hip_release(old) == (5, 2)
    ev = Evidence([HeaderSet((6, 4), (new,), "new"), HeaderSet((5, 2), (old,), "old")])
    assert ev.releases == ((5, 2), (6, 4))
    assert ev.name("hip", "hipA").versions() == {}
    assert ev.name("hip", "hipB").versions() == {"added": "6.4"}
    assert ev.name("hip", "hipGone").versions() == {"removed": "6.4"}
    # marked in 5.2, not in 6.4: the mark was taken back
    assert ev.name("hip", "hipC").deprecated is None
    # HIP's tracing tables name APIs without declaring them
    assert not ev.name("hip", "hipOnlyTraced").present
    assert ev.header("hip", "hip/hip_gl_interop.h").versions() == {"added": "6.4"}
    assert not ev.name("hipblas", "hipblasSgemm").present
    assert ev.name("hipblas", "hipblasSgemm").unpackaged == ((5, 2), (6, 4))


def test_refresh_keeps_hand_notes_and_drops_evidence_notes():
    note = ("declared by hip/hip_bf16.h; not declared in the ROCm 5.2 headers checked; "
            "present in ROCm 5.7; needs ROCm 6.0 or newer (not in the ROCm 5.2 headers checked)")
    assert kept_notes(note) == ["declared by hip/hip_bf16.h"]
    assert kept_notes(None) == []


def test_names_declared_by_token_pasting_are_seen():
    from tools.catalogue.hip_headers import pasted_names

    text = ("#define DECLOP_MAKE_FOUR_COMPONENT(comp, type) \\\n"
            "  static inline type make_##type(comp x, comp y, comp z, comp w);\n"
            "DECLOP_MAKE_FOUR_COMPONENT(float, float4);\n"
            "DECLOP_MAKE_ONE_COMPONENT(unsigned long long, ulonglong1);\n")
    assert pasted_names(text) == {"make_float4", "make_ulonglong1"}
