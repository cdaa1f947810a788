"""(c) every supported/deprecated HIP name exists in the HIP headers
available here, or is documented as coming from a newer ROCm / a library
Debian does not package."""
from __future__ import annotations

from functools import lru_cache

import pytest

from tests.catalogue.catalogue import REPO, Located
from tests.ci import in_ci, missing
from tools.catalogue.hip_headers import (
    NOT_IN_DEBIAN,
    HipLibraryHeaders,
    all_header_paths,
    default_include_dirs,
    parse_version,
    scan_library,
)

HIP_LIBS = ("hip", "hipblas", "hiprand", "hipfft", "hipsparse", "hipsolver", "hipcub",
            "rocthrust", "rccl", "hiprtc", "hipblaslt", "roctx", "miopen")


@lru_cache(maxsize=None)
def hip_library(name: str) -> HipLibraryHeaders:
    return scan_library(name, default_include_dirs(REPO))


@lru_cache(maxsize=None)
def header_paths() -> frozenset[str]:
    return frozenset(all_header_paths(default_include_dirs(REPO)))


def _mapped(entries: list[Located], hip_lib: str) -> list[Located]:
    return [loc for loc in entries if loc.hip_library == hip_lib
            and loc.status in ("supported", "deprecated")]


@pytest.mark.parametrize("hip_lib", HIP_LIBS)
def test_hip_names_exist(entries: list[Located], hip_lib: str) -> None:
    mapped = _mapped(entries, hip_lib)
    if not mapped:
        pytest.skip(f"no entries map to {hip_lib}")
    if hip_lib in NOT_IN_DEBIAN:
        bad = [loc.where for loc in mapped if loc.entry["kind"] != "header"
               and "not header-verified" not in loc.entry.get("note", "")]
        assert not bad, f"{hip_lib} cannot be header-checked; note must say so: {bad[:20]}"
        return
    lib = hip_library(hip_lib)
    if not lib.present:
        dirs = [str(d) for d in default_include_dirs(REPO)]
        missing(f"no {hip_lib} headers in {dirs} (run scripts/setup-toolchain.sh)")
    installed = lib.version
    absent: list[str] = []
    for loc in mapped:
        e = loc.entry
        if e["kind"] == "header":
            continue
        if lib.has(e["hip"]):
            continue
        added = (e.get("rocm_version") or {}).get("added")
        if added and installed and parse_version(added)[:2] > installed:
            continue
        absent.append(f"{loc.where} -> {e['hip']} (rocm added {added}, installed {installed})")
    assert not absent, f"{len(absent)} HIP names not declared:\n" + "\n".join(absent[:50])


def test_hip_headers_exist(entries: list[Located]) -> None:
    paths = header_paths()
    if not paths:
        missing("no HIP headers found")
    bad: list[str] = []
    for loc in entries:
        e = loc.entry
        if e["kind"] != "header" or loc.status not in ("supported", "deprecated"):
            continue
        if loc.hip_library in NOT_IN_DEBIAN:
            assert "not header-verified" in e.get("note", ""), loc.where
            continue
        if not hip_library(loc.hip_library).present:
            if in_ci():
                bad.append(f"{loc.where}: {loc.hip_library} headers missing")
            continue
        if e["hip"] not in paths:
            added = (e.get("rocm_version") or {}).get("added")
            installed = hip_library(loc.hip_library).version
            if added and installed and parse_version(added)[:2] > installed:
                continue
            bad.append(f"{loc.where} -> {e['hip']}")
    assert not bad, "\n".join(bad[:50])
