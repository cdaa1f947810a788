"""(c) every supported/deprecated HIP name is declared by the headers of the
ROCm releases its ``rocm_version`` range covers, and by no release the range
excludes: the ranges are header evidence (HIP 5.2 on the system, 6.4 in the
modern oracle's chroot, 5.7 when Debian 13's headers are unpacked), checked
again here.  Libraries no header set has must say they are not verified."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from hipport.libraries import library_table
from hipport.table.versions import NEWEST_VERIFIED, OLDEST_VERIFIED, release_text
from tests.catalogue.catalogue import REPO, Located
from tests.ci import missing
from tools.catalogue.evidence import Evidence, Range
from tools.catalogue.hip_headers import NOT_PACKAGED, header_sets, parse_version

HIP_LIBS = ("hip", "hipblas", "hiprand", "hipfft", "hipsparse", "hipsolver", "hipcub",
            "rocthrust", "rccl", "hiprtc", "hipblaslt", "roctx", "miopen")


@lru_cache(maxsize=1)
def evidence() -> Evidence:
    sets = header_sets(REPO)
    found = {s.release for s in sets}
    for required in (OLDEST_VERIFIED, NEWEST_VERIFIED):
        if required not in found:
            found_text = ", ".join(s.label for s in sets) or "none"
            missing(f"no ROCm {release_text(required)} headers (found: {found_text}); "
                    "run scripts/setup-toolchain.sh")
    for header_set in sets:
        # The ranges were written from header sets that all have the library
        # headers: HIP 5.2's come from .toolchain/rocm-extra, absent after
        # scripts/bootstrap.sh alone, and without them every hipBLAS name
        # would look removed from 5.2.
        if not any((root / "hipblas" / "hipblas.h").is_file() for root in header_set.roots):
            missing(f"the ROCm {header_set.label} headers ({header_set.origin}) have no library "
                    "headers (no hipblas/hipblas.h); run scripts/setup-toolchain.sh")
    return Evidence(sets)


def _mapped(entries: list[Located], hip_lib: str, header: bool) -> list[Located]:
    return [loc for loc in entries if loc.hip_library == hip_lib
            and loc.status in ("supported", "deprecated")
            and (loc.entry["kind"] == "header") == header]


def _in_range(release: tuple[int, int], versions: dict[str, str]) -> bool:
    added, removed = versions.get("added"), versions.get("removed")
    return (added is None or release >= parse_version(added)[:2]) and \
        (removed is None or release < parse_version(removed)[:2])


def range_problems(where: str, hip: str, versions: dict[str, Any], found: Range,
                   until: tuple[int, ...], since: tuple[int, ...] = ()) -> list[str]:
    """What the headers (``found``) contradict in ``versions``, for the
    releases from ``since`` and before ``until``."""
    problems = []
    for release in (r for r in sorted(evidence().releases) if since <= r < until):
        expected = _in_range(release, versions)
        state = found.state(release)
        # A release without the library after one with it is a header set
        # that lacks the package (Debian 13's 5.7 root has no rocSPARSE, 12's
        # 5.2 has), not a ROCm without it: the headers say nothing there.
        if state == "unpackaged" and expected and not any(
                found.state(older) != "unpackaged" for older in evidence().releases
                if older < release):
            problems.append(f"{where} -> {hip}: ROCm {release_text(release)} has no such "
                            "library, yet the range includes it")
        elif state in ("declared", "lacking") and (state == "declared") != expected:
            problems.append(f"{where} -> {hip}: ROCm {release_text(release)} headers "
                            f"{'declare' if state == 'declared' else 'lack'} it, range "
                            f"{versions or 'all'}")
    return problems


@pytest.mark.parametrize("hip_lib", HIP_LIBS)
def test_hip_names_match_their_ranges(entries: list[Located], hip_lib: str) -> None:
    mapped = _mapped(entries, hip_lib, header=False)
    if not mapped:
        pytest.skip(f"no entries map to {hip_lib}")
    if hip_lib in NOT_PACKAGED:
        bad = [loc.where for loc in mapped
               if "not header-verified" not in loc.entry.get("note", "")]
        assert not bad, f"{hip_lib} cannot be header-checked; note must say so: {bad[:20]}"
        return
    ev = evidence()
    problems: list[str] = []
    for loc in mapped:
        for hip, versions, since, until in _targets(loc.entry):
            found = ev.name(hip_lib, hip)
            problems += range_problems(loc.where, hip, versions, found, until, since)
            deprecated = versions.get("deprecated")
            marked = found.deprecated
            if (deprecated is None) != (marked is None) or (
                    marked is not None and deprecated is not None
                    and parse_version(deprecated)[:2] != marked):
                problems.append(f"{loc.where} -> {hip}: deprecated {deprecated}, headers "
                                f"mark it from {marked}")
    assert not problems, f"{len(problems)} ranges the headers contradict:\n" + \
        "\n".join(problems[:50])


@pytest.mark.parametrize("hip_lib", HIP_LIBS)
def test_hip_headers_match_their_ranges(entries: list[Located], hip_lib: str) -> None:
    mapped = [loc for loc in _mapped(entries, hip_lib, header=True)]
    if not mapped:
        pytest.skip(f"no header maps to {hip_lib}")
    if hip_lib in NOT_PACKAGED:
        assert all("not header-verified" in loc.entry.get("note", "") for loc in mapped)
        return
    ev = evidence()
    problems: list[str] = []
    for loc in mapped:
        library = "rocthrust" if loc.library == "thrust" else hip_lib
        for hip, versions, since, until in _targets(loc.entry):
            found = ev.header(library, hip)
            problems += range_problems(loc.where, hip, versions, found, until, since)
    assert not problems, "\n".join(problems[:50])


def _targets(entry: dict[str, Any]
             ) -> list[tuple[str, dict[str, Any], tuple[int, ...], tuple[int, ...]]]:
    """The entry's HIP name and range, its ``older`` one's, which covers the
    releases before the entry's own, and its ``newer`` one's, from the
    release that removed the entry's name on (before it the name may exist
    with another signature: hipBLAS 2's hipblasCgemm took hipblasComplex,
    hipBLAS 3's takes hipComplex): (name, range, the releases checked from
    and until)."""
    out: list[tuple[str, dict[str, Any], tuple[int, ...], tuple[int, ...]]] = [
        (entry["hip"], dict(entry.get("rocm_version") or {}), (), (99,))]
    older = entry.get("older")
    if older is not None:
        out.append((older["hip"], dict(older.get("rocm_version") or {}), (),
                    parse_version(entry["rocm_version"]["added"])))
    newer = entry.get("newer")
    if newer is not None:
        since = entry["rocm_version"]["removed"]
        out.append((newer["hip"], {"added": since}, parse_version(since), (99,)))
    return out


ROC_LIBS = tuple(sorted(lib.key for lib in library_table().roc_libraries.values()))


def _roc_targets(entries: list[Located], roc_lib: str, header: bool
                 ) -> list[tuple[Located, str, dict[str, Any]]]:
    """The `--roc` targets (hipport.table.roc) of the entries converting to
    ``roc_lib``: (entry, name, its range and deprecation mark)."""
    out = []
    for loc in entries:
        roc = loc.entry.get("roc")
        if roc is None or library_table().roc_libraries.get(loc.library) is None or \
                library_table().roc_libraries[loc.library].key != roc_lib or \
                (loc.entry["kind"] == "header") != header:
            continue
        fields = {"name": roc} if isinstance(roc, str) else roc
        if fields.get("status", "supported") in ("supported", "deprecated"):
            out.append((loc, fields["name"], fields))
    return out


@pytest.mark.parametrize("roc_lib", ROC_LIBS)
def test_roc_names_match_their_ranges(entries: list[Located], roc_lib: str) -> None:
    """Every `--roc` name is declared by the rocBLAS/rocRAND headers of the
    releases its range covers, and marked deprecated where it says so."""
    targets = _roc_targets(entries, roc_lib, header=False)
    assert len(targets) > 50, f"{roc_lib}: {len(targets)} roc targets"
    ev = evidence()
    problems: list[str] = []
    for loc, name, fields in targets:
        versions = dict(fields.get("rocm_version") or {})
        found = ev.name(roc_lib, name)
        problems += range_problems(loc.where, name, versions, found, (99,))
        if (fields.get("status") == "deprecated") != (found.deprecated is not None):
            problems.append(f"{loc.where} -> {name}: status {fields.get('status')}, headers "
                            f"mark it deprecated from {found.deprecated}")
    assert not problems, f"{len(problems)} ranges the headers contradict:\n" + \
        "\n".join(problems[:50])


@pytest.mark.parametrize("roc_lib", ROC_LIBS)
def test_roc_headers_exist_where_their_ranges_say(entries: list[Located], roc_lib: str) -> None:
    targets = _roc_targets(entries, roc_lib, header=True)
    assert targets, f"no header converts to {roc_lib}"
    ev = evidence()
    problems: list[str] = []
    for loc, name, fields in targets:
        found = ev.header(roc_lib, name)
        problems += range_problems(loc.where, name, dict(fields.get("rocm_version") or {}),
                                   found, (99,))
    assert not problems, "\n".join(problems[:50])
