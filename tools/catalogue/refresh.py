"""Bring existing catalogue entries up to date with the header evidence.

Hand edits survive: an entry is only re-proposed from scratch when it is
curated (``curated.py`` wins) or when its note is one the generator wrote for
"no equivalent found" (new headers may have one now).  Every other entry with
a HIP name keeps its name, rule and hand-written note, and gets its
``rocm_version`` range, deprecated status and evidence note recomputed from
the headers."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from hipport.table.versions import release_text

from .curated import CURATED, HEADERS
from .evidence import Evidence
from .hip_headers import NOT_PACKAGED
from .hipify_tables import HipifyFact
from .libraries import HIP_LIBRARY
from .propose import date, ordered, propose, propose_header

Entry = dict[str, Any]

# Note fragments the generator writes from evidence (older generators' too):
# dropped and written anew on every refresh.
_EVIDENCE_NOTES = re.compile("|".join((
    r"not declared in the ROCm [\d./]+ headers checked",
    r"present in ROCm [\d.]+",
    r"needs ROCm [\d.]+ or newer \(not in the ROCm [\d.?]+ headers checked\)",
    r"\S+ is deprecated since ROCm [\d.]+",
    r"not header-verified \((?:miopen|hipblaslt) is not packaged in Debian\)",
    r"not in the ROCm [\d./]+ headers checked",
    r"not (?:declared )?in the ROCm [\d./]+ headers checked \(library not packaged\)",
    r"gone from the ROCm [\d.]+ headers",
    r"\S+ is marked deprecated in the ROCm [\d.]+ headers",
    r"still converted for old code",
    r"the ROCm [\d.]+ headers declare it only with \w+ defined",
)))

# Notes of entries the generator found no (verified) equivalent for.
_NOT_FOUND_NOTES = re.compile("|".join((
    r"no HIP equivalent known",
    r"no known \w+ equivalent \(the \w+ headers are not packaged in Debian, so no name is "
    r"guessed\)",
    r"closest MIOpen API is \S+, but its arguments differ: rewrite the call by hand.*",
    r"HIPIFY names .*no verified equivalent",
    r"no MIOpen equivalent: MIOpen uses a different descriptor and algorithm model; rewrite "
    r"this part with the miopen\* API",
    r"no HIP counterpart header; remove the include or include the HIP header that declares "
    r"the replacement API",
    r"\S+ is not in the HIP headers checked",
    r"rocThrust does not ship this header",
    r"\S+ is not declared in the ROCm [\d./]+ headers checked; no verified equivalent",
)))


def kept_notes(note: str | None) -> list[str]:
    """The parts of ``note`` that are not evidence the generator wrote."""
    if not note:
        return []
    return [part for part in note.split("; ") if not _EVIDENCE_NOTES.fullmatch(part)]


@dataclass
class Changes:
    redated: int = 0
    reproposed: int = 0
    lost: list[str] = field(default_factory=list)     # mapped names no header declares
    gained: list[str] = field(default_factory=list)   # unsupported names now mapped


def refresh(entry: Entry, library: str, fact: HipifyFact | None, ev: Evidence,
            changes: Changes) -> Entry:
    """``entry`` (from ``library``'s file) as the current evidence has it."""
    name, kind = entry["cuda"], entry["kind"]
    status = entry.get("status", "supported")
    if kind == "header":
        if name in HEADERS and (status not in ("supported", "deprecated") and
                                _NOT_FOUND_NOTES.fullmatch(entry.get("note", ""))):
            return _reproposed(entry, propose_header(name, ev), changes)
        if status in ("supported", "deprecated"):
            return _redated_header(entry, ev, changes)
        return entry
    if name in CURATED:
        return _reproposed(entry, propose(name, library, kind, fact, ev), changes)
    if status in ("supported", "deprecated"):
        return _redated(entry, library, ev, changes)
    if _NOT_FOUND_NOTES.fullmatch(entry.get("note", "")):
        return _reproposed(entry, propose(name, library, kind, fact, ev), changes)
    return entry


def _reproposed(old: Entry, new: Entry, changes: Changes) -> Entry:
    if "library" in old and "library" not in new:
        new["library"] = old["library"]
    if "cuda_version" in old and "cuda_version" not in new:
        new["cuda_version"] = old["cuda_version"]
    new = ordered(new)
    if new != old:
        changes.reproposed += 1
        if "hip" in new and "hip" not in old:
            changes.gained.append(f"{old['cuda']} -> {new['hip']}")
    return new


def _redated(entry: Entry, library: str, ev: Evidence, changes: Changes) -> Entry:
    hip_library = HIP_LIBRARY[entry.get("library", library)]
    if hip_library in NOT_PACKAGED:
        return entry
    found = ev.name(hip_library, entry["hip"])
    if not found.present:
        changes.lost.append(f"{entry['cuda']} -> {entry['hip']}")
        lost = {k: v for k, v in entry.items() if k not in ("hip", "rocm_version", "older",
                                                            "applicability", "rule")}
        lost["status"] = "unsupported"
        lost["note"] = (f"{entry['hip']} is not declared in the ROCm "
                        f"{'/'.join(release_text(r) for r in ev.releases)} headers checked; "
                        "no verified equivalent")
        return ordered(lost)
    new = date(dict(entry), found, kept_notes(entry.get("note")))
    if new != entry:
        changes.redated += 1
    return new


def _redated_header(entry: Entry, ev: Evidence, changes: Changes) -> Entry:
    library = entry.get("library", "headers")
    hip_library = "rocthrust" if library == "thrust" else HIP_LIBRARY[library]
    if hip_library in NOT_PACKAGED:
        return entry
    new = propose_header(entry["cuda"], ev) if entry["cuda"] in HEADERS else None
    found = ev.header(hip_library, entry["hip"])
    if not found.present:
        changes.lost.append(f"{entry['cuda']} -> {entry['hip']}")
        return entry
    dated = date(dict(entry), found, kept_notes(entry.get("note")))
    if new is not None and "older" in new:
        dated["older"] = new["older"]
    dated = ordered(dated)
    if dated != entry:
        changes.redated += 1
    return dated
