"""Target ROCm releases: which ones hipport verifies, and what a catalogue
entry means for the release a conversion targets (docs/rocm-versions.md).

An entry's ``rocm_version`` range comes from the headers of the verified
releases (tools/catalogue): ``added`` is the first release declaring the HIP
name, ``removed`` the first no longer declaring it, ``deprecated`` the first
marking it deprecated.  For a target before the range the entry's ``older``
mapping applies when it has one, for a target from ``removed`` on its
``newer`` one; otherwise the name is left unchanged."""
from __future__ import annotations

import enum
import re
from dataclasses import replace

from hipport.table.schema import Mapping, Status, parse_version

Release = tuple[int, ...]

# The releases whose headers every HIP name in the catalogue is checked
# against: Debian 12's HIP 5.2, Debian 13's 5.7, Debian sid's 6.4 and Debian
# experimental's 7.2.
VERIFIED_RELEASES: tuple[Release, ...] = ((5, 2), (5, 7), (6, 4), (7, 2))
OLDEST_VERIFIED = VERIFIED_RELEASES[0]
NEWEST_VERIFIED = VERIFIED_RELEASES[-1]
# What --rocm-version defaults to: the newest release verified, the ROCm
# users install now (issue 33); 6.4 and 5.2 stay selectable.
DEFAULT_TARGET: Release = (7, 2)

_TARGET_RE = re.compile(r"[0-9]+\.[0-9]+(\.[0-9]+)?")  # ASCII: \d also takes "٦.٤"


def release_text(release: Release) -> str:
    return ".".join(str(n) for n in release)


def parse_target(text: str) -> Release:
    """``--rocm-version X.Y``: a ValueError that says why when it is not one
    hipport can target."""
    if not _TARGET_RE.fullmatch(text.strip()):
        raise ValueError(f"expected a ROCm release such as {release_text(DEFAULT_TARGET)}, "
                         f"got {text!r}")
    release = parse_version(text.strip())
    if release < OLDEST_VERIFIED:
        raise ValueError(f"ROCm {text} is older than {release_text(OLDEST_VERIFIED)}, the "
                         "oldest release hipport checks its mappings against")
    return release


class Availability(enum.Enum):
    AVAILABLE = "available"
    TOO_NEW = "too-new"     # the HIP name comes after the target
    REMOVED = "removed"     # the target no longer has it


def for_target(entry: Mapping, target: Release | None) -> tuple[Mapping, Availability]:
    """The mapping that applies to ``target`` (None: no version checks) and
    whether the target has its HIP name."""
    if target is None or not entry.status.converts:
        return entry, Availability.AVAILABLE
    added, removed = entry.rocm_added, entry.rocm_removed
    if added is not None and target < parse_version(added):
        if entry.older is not None:
            return for_target(entry.older, target)
        return entry, Availability.TOO_NEW
    if removed is not None and target >= parse_version(removed):
        if entry.newer is not None:
            return for_target(entry.newer, target)
        return entry, Availability.REMOVED
    if entry.status is Status.DEPRECATED and entry.rocm_deprecated is not None \
            and target < parse_version(entry.rocm_deprecated):
        return replace(entry, status=Status.SUPPORTED), Availability.AVAILABLE
    return entry, Availability.AVAILABLE


# The evidence note tools/catalogue writes for a deprecated name ("hipX is
# marked deprecated in the ROCm 5.2 headers"): the finding says it for the target.
_DEPRECATION_EVIDENCE = re.compile(r"\S+ is marked deprecated in the ROCm [\d.]+ headers")


def deprecation_reason(entry: Mapping, target: Release | None) -> str:
    """What HP902 says of ``entry``'s HIP name, for ``target`` (None: any release)."""
    since = entry.rocm_deprecated
    if target is None:
        return f"deprecated in ROCm{f' (marked since ROCm {since})' if since else ''}"
    wanted = release_text(target)
    marked = f" (marked since ROCm {since})" if since and since != wanted else ""
    return f"deprecated in ROCm {wanted}, the target{marked}"


# The evidence notes it writes for a name some verified releases lack ("not
# declared in the ROCm 5.2/5.7 headers checked", "present in ROCm 6.4").
_AVAILABILITY_EVIDENCE = re.compile(r"not (?:declared )?in the ROCm [\d./]+ headers checked"
                                    r"(?: \(library not packaged\))?|present in ROCm [\d.]+")


def note_for_target(entry: Mapping, target: Release | None) -> str | None:
    """``entry``'s note (for ``target``) without the evidence parts a message
    says better: the deprecation mark HP902 states for the target, and, with a
    target, which verified releases have the HIP name (the target has it, or
    HP905 says that it lacks it)."""
    note = entry.note
    if not note:
        return note
    kept = [part for part in note.split("; ")
            if not (entry.status is Status.DEPRECATED and _DEPRECATION_EVIDENCE.fullmatch(part))
            and not (target is not None and _AVAILABILITY_EVIDENCE.fullmatch(part))]
    return "; ".join(kept) or None


def releases_lacking(target: Release | None, since: Release | None = None) -> str:
    """How a message names the releases that lack something HIP has from ``since``
    on (None: in no release checked): the target, or, with no target, the
    verified releases that lack it ("ROCm 5.2 and 5.7")."""
    if target is not None:
        return f"ROCm {release_text(target)}, the target"
    lacking = [release_text(r) for r in VERIFIED_RELEASES if since is None or r < since]
    listed = lacking[0] if len(lacking) == 1 else ", ".join(lacking[:-1]) + " and " + lacking[-1]
    return f"ROCm {listed}"


def unavailable_reason(entry: Mapping, availability: Availability, target: Release) -> str:
    """Why ``entry`` is left unchanged for ``target`` (HP905's message)."""
    wanted = release_text(target)
    if availability is Availability.REMOVED:
        return (f"`{entry.cuda}` maps to `{entry.hip}`, which ROCm {entry.rocm_removed} no "
                f"longer has (target {wanted})")
    return (f"`{entry.cuda}` maps to `{entry.hip}`, which needs ROCm {entry.rocm_added} "
            f"(target {wanted}; --rocm-version chooses it)")
