"""The header's text: only the fallbacks the names need (and what they
require), in a stable order, each under its guard; the marker first; and
the listing of what becomes of each name."""
from __future__ import annotations

import pytest

from hipport.polyfills import (
    DEFAULT_EXACTNESS,
    MARKER,
    Exactness,
    Status,
    bundled_polyfills,
    covered_names,
    emulations,
    is_generated,
    parse_files,
    render,
    select,
)

_ENTRY = """\
  - id: {id}
    names: [{names}]
    exactness: {exactness}
    semantics: Does {id}.
    cost: some.
    rocm: {rocm}
    context: device
    requires: [{requires}]
    finding: {id} emulated.
    code: |
      // code of {id}: {code}
"""


def _set(*entries: dict[str, str]):
    text = "schema: hipport-polyfills/1\nfamily: demo\ntitle: Demo\nfallbacks:\n"
    for e in entries:
        names = ", ".join(f"{{cuda: {n}, kind: device_function}}" for n in e.get("names", ""
                                                                                ).split())
        text += _ENTRY.format(id=e["id"], names=names, exactness=e.get("exactness", "exact"),
                              rocm=e.get("rocm", "{real: none}"),
                              requires=e.get("requires", ""),
                              code=e.get("code", e.get("names", "helper")))
    return parse_files([("demo.yaml", text)])


DEMO = _set(
    {"id": "base"},
    {"id": "wide", "names": "__wide __wider", "requires": "base"},
    {"id": "late", "names": "__late", "rocm": '{real: "6.2"}'},
    {"id": "guarded", "names": "__guarded", "rocm": '{real: "6.2", when: "defined(X)"}'},
    {"id": "new", "names": "__new", "rocm": '{real: none, needs: "5.7"}'},
    {"id": "rough", "names": "__rough", "exactness": "approximate", "requires": "base"},
    {"id": "beside-it", "names": "__beside", "code": "__beside unless HIPPORT_ROCM_HAS_BESIDE_IT",
     "rocm": '{real: "7.2", when: "!defined(Y)", beside: true}'},
)


def _ids(fallbacks) -> list[str]:
    return [f.id for f in fallbacks]


def test_only_the_fallbacks_used_and_what_they_require_in_a_stable_order():
    assert _ids(select(["__rough", "__wider", "cudaMalloc"], "6.4", set(Exactness), DEMO)) == \
        ["base", "wide", "rough"]
    assert _ids(select(["__wide"], "6.4", DEFAULT_EXACTNESS, DEMO)) == ["base", "wide"]
    assert select(["cudaMalloc"], "6.4", DEFAULT_EXACTNESS, DEMO) == ()


@pytest.mark.parametrize("name, target, allowed, status, code", [
    ("__wide", "5.2", DEFAULT_EXACTNESS, Status.APPLIED, "HP701"),
    ("__rough", "6.4", DEFAULT_EXACTNESS, Status.WITHHELD, "HP705"),
    ("__rough", "6.4", set(Exactness), Status.APPLIED, "HP704"),
    ("__late", "6.0", DEFAULT_EXACTNESS, Status.APPLIED, "HP701"),
    ("__late", "6.2", DEFAULT_EXACTNESS, Status.NATIVE, None),
    ("__guarded", "6.4", DEFAULT_EXACTNESS, Status.APPLIED, "HP701"),
    ("__new", "5.2", DEFAULT_EXACTNESS, Status.ROCM_TOO_OLD, "HP706"),
    ("__new", "5.7", DEFAULT_EXACTNESS, Status.APPLIED, "HP701"),
    ("__beside", "7.2", DEFAULT_EXACTNESS, Status.APPLIED, "HP701"),
])
def test_what_becomes_of_a_name(name, target, allowed, status, code):
    (emulation,) = emulations([name, "cudaMalloc"], target, allowed, DEMO)
    assert (emulation.name, emulation.status, emulation.code) == (name, status, code)
    assert f"`{name}`" in emulation.message
    applied = name in {f for e in select([name], target, allowed, DEMO) for f in e.cuda_names}
    assert applied == (status is Status.APPLIED)


def test_the_messages_say_why():
    by_name = {e.name: e for e in emulations(["__wide", "__rough", "__new"], "5.2",
                                             DEFAULT_EXACTNESS, DEMO)}
    assert by_name["__wide"].message == ("`__wide` has no HIP equivalent; hipport_polyfills.h "
                                         "emulates it (exact): wide emulated.")
    assert "only approximate (Does rough.)" in by_name["__rough"].message
    assert "needs ROCm 5.7 or newer" in by_name["__new"].message


def test_the_header_guards_each_fallback_and_starts_with_the_marker():
    text = render(["__late", "__guarded", "__new", "__wider"], "5.7", polyfills=DEMO)
    assert is_generated(text) and text.startswith(MARKER)
    lines = text.decode().split("\n")
    assert lines[4:7] == ["#ifndef HIPPORT_POLYFILLS_H", "#define HIPPORT_POLYFILLS_H",
                          "#include <hip/hip_runtime.h>"]
    body = text.decode()
    assert ("/* polyfill late (exact): __late */\n#if HIP_VERSION < 60200000\n"
            "// code of late: __late\n#endif /* late */") in body
    assert "#if !(HIP_VERSION >= 60200000 && (defined(X)))\n" in body
    assert "/* polyfill new (exact): __new */\n#if HIP_VERSION >= 50700000\n" in body
    assert "/* polyfill base: helpers of the fallbacks below */\n// code of base" in body
    assert body.index("polyfill base") < body.index("polyfill wide")
    assert "#if defined(__HIP_PLATFORM_AMD__) && defined(__cplusplus)" in body
    assert covered_names(text) == {"__late", "__guarded", "__new", "__wide", "__wider"}


def test_a_fallback_beside_the_real_api_is_told_where_rocm_declares_it():
    body = render(["__beside"], "7.2", polyfills=DEMO).decode()
    assert ("/* polyfill beside-it (exact): __beside */\n"
            "#if HIP_VERSION >= 70200000 && (!defined(Y))\n#define HIPPORT_ROCM_HAS_BESIDE_IT 1\n"
            "#else\n#define HIPPORT_ROCM_HAS_BESIDE_IT 0\n#endif\n"
            "// code of beside-it: __beside unless HIPPORT_ROCM_HAS_BESIDE_IT\n\n") in body
    assert "#if !(" not in body and "#endif /* beside-it */" not in body


def test_on_hips_nvidia_platform_the_header_includes_the_cuda_headers_it_stands_in_for():
    body = render(["cooperative_groups::reduce", "__syncwarp"], "6.4").decode()
    nvidia = body[body.index("#elif "):]
    assert nvidia.startswith("#elif defined(__HIP_PLATFORM_NVIDIA__) && defined(__cplusplus)\n")
    assert "#include <cooperative_groups/reduce.h>\n" in nvidia
    assert "__syncwarp" not in nvidia and "#include <cooperative_groups/reduce.h>" not in \
        body[:body.index("#elif ")]
    assert "#elif" not in render(["__syncwarp"], "6.4").decode()  # no header stood in for


def test_the_same_names_give_the_same_bytes():
    one = render(["__wider", "__late"], "6.0", polyfills=DEMO)
    assert one == render(["__late", "__wider", "__late"], "6.0", polyfills=DEMO)
    assert one != render(["__late"], "6.0", polyfills=DEMO)


def test_a_file_of_the_users_is_not_generated():
    assert not is_generated(b"/* my polyfills */\n")
    assert not is_generated(b"")


def test_the_bundled_header_covers_every_name_it_is_asked_for():
    polyfills = bundled_polyfills()
    names = list(polyfills.by_name)
    text = render(names, "6.4", set(Exactness))
    native = {e.name for e in emulations(names, "6.4", set(Exactness))
              if e.status is not Status.APPLIED}
    assert covered_names(text) == set(names) - native
