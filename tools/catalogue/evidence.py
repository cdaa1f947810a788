"""What the header sets say about a HIP name: in which releases it is
declared, deprecated or gone.  ``rocm_version`` ranges are read from here and
from nowhere else."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from hipport.table.versions import release_text

from .hip_headers import HeaderSet, HipLibraryHeaders, Release, all_header_paths, scan_set


@dataclass(frozen=True)
class Range:
    """Header evidence for one name across the releases checked.

    ``added`` is the first release declaring it when an older one checked
    does not (a release without the library at all counts as not declaring
    it: nothing there can be verified); ``removed`` the first release
    lacking it after one declaring it, among releases that have the library;
    ``deprecated`` the first release marking it deprecated (when no later
    release declares it unmarked)."""

    seen: tuple[Release, ...]
    lacking: tuple[Release, ...]      # releases with the library but not the name
    unpackaged: tuple[Release, ...]   # releases without the library
    deprecated: Release | None = None
    # Releases whose headers cannot tell: the name comes from Clang's HIP
    # wrapper headers elsewhere, and that release's Clang headers were not read.
    unknown: tuple[Release, ...] = ()
    # The macro without which the newest release declaring it does not.
    gate: str | None = None

    def state(self, release: Release) -> str:
        """declared, lacking, unpackaged or unknown."""
        for state, releases in (("declared", self.seen), ("lacking", self.lacking),
                                ("unpackaged", self.unpackaged), ("unknown", self.unknown)):
            if release in releases:
                return state
        raise KeyError(release)

    @property
    def present(self) -> bool:
        return bool(self.seen)

    @property
    def added(self) -> Release | None:
        if not self.seen:
            return None
        older = [r for r in (*self.lacking, *self.unpackaged) if r < self.seen[0]]
        return self.seen[0] if older else None

    @property
    def removed(self) -> Release | None:
        if not self.seen:
            return None
        later = [r for r in self.lacking if r > self.seen[-1]]
        return min(later) if later else None

    def versions(self) -> dict[str, str]:
        """The ``rocm_version`` mapping of a catalogue entry."""
        out: dict[str, str] = {}
        if self.added is not None:
            out["added"] = release_text(self.added)
        if self.deprecated is not None:
            out["deprecated"] = release_text(self.deprecated)
        if self.removed is not None:
            out["removed"] = release_text(self.removed)
        return out

    def note(self, what: str | None) -> str | None:
        """Where the evidence comes from, when it narrows the releases;
        ``what`` names the HIP name (None for a header)."""
        parts: list[str] = []
        if self.added is not None:
            missing = sorted(r for r in (*self.lacking, *self.unpackaged) if r < self.added)
            verb = "in" if what is None else "declared in"
            where = "headers checked (library not packaged)" \
                if set(missing) <= set(self.unpackaged) else "headers checked"
            parts.append(f"not {verb} the ROCm {_list(missing)} {where}; present in ROCm "
                         f"{release_text(self.added)}")
        if self.removed is not None:
            parts.append(f"gone from the ROCm {release_text(self.removed)} headers")
        if self.gate is not None:
            parts.append(f"the ROCm {release_text(self.seen[-1])} headers declare it only with "
                         f"{self.gate} defined")
        if self.deprecated is not None and what is not None:
            parts.append(f"{what} is marked deprecated in the ROCm "
                         f"{release_text(self.deprecated)} headers")
        return "; ".join(parts) or None


def _list(releases: list[Release]) -> str:
    return "/".join(release_text(r) for r in releases)


class Evidence:
    """Header scans of every HIP library in every header set, oldest first."""

    def __init__(self, sets: list[HeaderSet]) -> None:
        if not sets:
            raise ValueError("no HIP header set found")
        self.sets = sorted(sets, key=lambda s: s.release)
        self._scans: dict[str, list[HipLibraryHeaders]] = {}

    @property
    def releases(self) -> tuple[Release, ...]:
        return tuple(s.release for s in self.sets)

    def scans(self, hip_library: str) -> list[HipLibraryHeaders]:
        if hip_library not in self._scans:
            self._scans[hip_library] = [scan_set(hip_library, s) for s in self.sets]
        return self._scans[hip_library]

    def name(self, hip_library: str, name: str) -> Range:
        seen: list[Release] = []
        lacking: list[Release] = []
        unpackaged: list[Release] = []
        unknown: list[Release] = []
        deprecated: Release | None = None
        scans = self.scans(hip_library)
        from_compiler = any(s.has_compiler_headers and name in s.compiler_identifiers
                            for s in scans)
        for scan in scans:
            assert scan.version is not None
            if not scan.present:
                unpackaged.append(scan.version)
            elif scan.has(name):
                seen.append(scan.version)
                # Deprecated from the first release marking it, unless a
                # later one takes the mark back (ROCm 6.4: hipFreeHost).
                if not scan.is_deprecated(name):
                    deprecated = None
                elif deprecated is None:
                    deprecated = scan.version
            elif from_compiler and not scan.has_compiler_headers:
                unknown.append(scan.version)
            else:
                lacking.append(scan.version)
        newest = next((s for s in reversed(scans) if s.version in seen), None)
        gate = newest.gated.get(name.rsplit("::", 1)[-1]) if newest is not None else None
        return Range(tuple(seen), tuple(lacking), tuple(unpackaged), deprecated, tuple(unknown),
                     gate)

    @cached_property
    def _header_paths(self) -> list[set[str]]:
        return [all_header_paths(s.roots) for s in self.sets]

    def header(self, hip_library: str, path: str) -> Range:
        seen: list[Release] = []
        lacking: list[Release] = []
        unpackaged: list[Release] = []
        for headers, paths, scan in zip(self.sets, self._header_paths, self.scans(hip_library)):
            if not scan.present:
                unpackaged.append(headers.release)
            elif path in paths:
                seen.append(headers.release)
            else:
                lacking.append(headers.release)
        return Range(tuple(seen), tuple(lacking), tuple(unpackaged))


def evidence_for(repo_root: Path, extra_sysroots: list[Path] | None = None) -> Evidence:
    from .hip_headers import header_sets

    return Evidence(header_sets(repo_root, extra_sysroots or []))
