"""How a CMakeLists.txt compiles each C++ source of its targets
(``hipport.buildfiles.languages``), read without running CMake.

A C++ source of a target is compiled by the CXX compiler: with the HIP
platform when the target links ``hip::host`` or a ROCm library target
(they link ``hip::host``: ``roc::hipblas``, ``hip::hipfft``, ...), as HIP
when it links ``hip::device`` (or hipCUB, rocThrust, which link it), when
the source has ``LANGUAGE HIP`` (``set_source_files_properties``,
``set_property(SOURCE ...)``) or when ``CMAKE_CXX_COMPILER`` is hipcc.
Usage requirements travel through the project's own targets as CMake
passes them: a target linked ``PUBLIC``, ``INTERFACE`` or without a
keyword gives its dependents what it links.  ``link_libraries`` applies
to the targets created after it.  A source the file does not name is left
to the caller."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Iterable

from hipport.buildfiles.cmake.conditions import Given, file_commands
from hipport.buildfiles.cmake.tokens import Command
from hipport.buildfiles.expand import CMAKE_REFERENCE, absolute, expand
from hipport.buildfiles.languages import CXX_SUFFIXES, Compiled, lowest

# Targets whose usage requirements compile C++ as HIP (-x hip): hip::device
# itself, and the packages that link it (rocprim-targets.cmake: rocprim_hip
# links hip::device; hipCUB and rocThrust link rocprim_hip).
DEVICE_TARGETS = frozenset({"hip::device", "hip-lang::device", "roc::rocprim_hip",
                            "hip::hipcub", "roc::rocthrust"})
# Targets that bring no HIP platform: the runtime library alone.
BARE_TARGETS = frozenset({"hip::amdhip64", "hip-lang::amdhip64"})
_ROCM_NAMESPACES = ("hip::", "hip-lang::", "roc::", "hiprtc::", "MIOpen")
_TARGET_OPTIONS = frozenset({"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC", "SHARED",
                             "MODULE", "OBJECT", "INTERFACE"})
_LINK_SCOPES = {"PRIVATE": False, "LINK_PRIVATE": False, "PUBLIC": True, "LINK_PUBLIC": True,
                "INTERFACE": True, "LINK_INTERFACE_LIBRARIES": True}
_SOURCE_SCOPES = frozenset({"PRIVATE", "PUBLIC", "INTERFACE"})
_LINK_QUALIFIERS = frozenset({"debug", "optimized", "general"})


@dataclass
class _Target:
    sources: list[Path] = field(default_factory=list)
    # (library, whether dependents get it too, whether the target itself does)
    links: list[tuple[str, bool, bool]] = field(default_factory=list)


def cmake_compiled(path: Path, top: Path, given: Given = ()) -> dict[Path, Compiled]:
    """Each C++ source a target of ``path`` compiles, and how (``top``: the
    project's top folder, ``${PROJECT_SOURCE_DIR}``; ``given``: the user's
    ``-D NAME=VALUE``, which decide the branches the configure takes)."""
    try:
        stat = path.stat()
    except OSError:
        return {}
    return _compiled(path, top, stat.st_mtime_ns, stat.st_size, given)


@lru_cache(maxsize=256)
def _compiled(path: Path, top: Path, mtime: int, size: int, given: Given
              ) -> dict[Path, Compiled]:
    commands = file_commands(path, top, given)
    if commands is None:
        return {}
    return _Reader(path.parent, top).read(commands)


class _Reader:
    def __init__(self, folder: Path, top: Path) -> None:
        self.folder = folder
        self.known = {"CMAKE_CURRENT_SOURCE_DIR": str(folder),
                      "CMAKE_CURRENT_LIST_DIR": str(folder),
                      "PROJECT_SOURCE_DIR": str(top), "CMAKE_SOURCE_DIR": str(top)}
        self.targets: dict[str, _Target] = {}
        self.languages: dict[Path, str] = {}  # LANGUAGE source property
        self.directory_links: list[str] = []
        self.cxx_is_hipcc = False

    def read(self, commands: list[Command]) -> dict[Path, Compiled]:
        for command in commands:
            values = [w.value for w in command.words]
            name = command.lname
            if name == "set" and values:
                self._set(values)
            elif name in ("add_executable", "add_library") and values:
                self._add_target(values)
            elif name == "target_sources" and values and values[0] in self.targets:
                self.targets[values[0]].sources += self._sources(
                    v for v in values[1:] if v not in _SOURCE_SCOPES)
            elif name == "target_link_libraries" and values and values[0] in self.targets:
                self._link(self.targets[values[0]], values[1:])
            elif name == "link_libraries":
                self.directory_links += self._items(values)
            elif name == "set_source_files_properties":
                self._source_properties(values)
            elif name == "set_property" and values[:1] == ["SOURCE"]:
                self._set_property(values[1:])
        return self._result()

    def _set(self, values: list[str]) -> None:
        given = values[1:]
        for keyword in ("CACHE", "PARENT_SCOPE"):
            given = given[:given.index(keyword)] if keyword in given else given
        parts = [expand(v, self.known, CMAKE_REFERENCE) for v in given]
        if any(p is None for p in parts):
            self.known.pop(values[0], None)
            return
        self.known[values[0]] = ";".join(p for p in parts if p)
        if values[0] == "CMAKE_CXX_COMPILER" and parts:
            self.cxx_is_hipcc = PurePosixPath(parts[0] or "").name.startswith("hipcc")

    def _add_target(self, values: list[str]) -> None:
        if "IMPORTED" in values or "ALIAS" in values:
            return
        target = _Target(self._sources(v for v in values[1:] if v not in _TARGET_OPTIONS))
        target.links += [(lib, False, True) for lib in self.directory_links]
        self.targets[values[0]] = target

    def _items(self, values: list[str]) -> list[str]:
        """Values with their references expanded and lists split; what
        needs CMake to compute (a generator expression, an unknown
        variable) is left out."""
        items: list[str] = []
        for value in values:
            if "$<" in value:
                continue
            expanded = expand(value, self.known, CMAKE_REFERENCE)
            if expanded is not None:
                items += [part.strip() for part in expanded.replace(";", " ").split()
                          if part.strip()]
        return items

    def _sources(self, values: Iterable[str]) -> list[Path]:
        return [Path(absolute(self.folder, item)) for item in self._items(list(values))]

    def _link(self, target: _Target, values: list[str]) -> None:
        passed_on, own = True, True  # no keyword: transitive
        for value in values:
            if value in _LINK_SCOPES:
                passed_on = _LINK_SCOPES[value]
                own = value not in ("INTERFACE", "LINK_INTERFACE_LIBRARIES")
            elif value not in _LINK_QUALIFIERS:
                target.links += [(item, passed_on, own) for item in self._items([value])]

    def _source_properties(self, values: list[str]) -> None:
        if "PROPERTIES" not in values:
            return
        at = values.index("PROPERTIES")
        files = _before_keyword(values[:at])
        pairs = values[at + 1:]
        for key, value in zip(pairs[::2], pairs[1::2]):
            if key == "LANGUAGE":
                for source in self._sources(files):
                    self.languages[source] = value.upper()

    def _set_property(self, values: list[str]) -> None:
        if "PROPERTY" not in values:
            return
        at = values.index("PROPERTY")
        rest = values[at + 1:]
        if len(rest) >= 2 and rest[0] == "LANGUAGE":
            for source in self._sources(_before_keyword(values[:at])):
                self.languages[source] = rest[1].upper()

    def _gives(self, library: str, seen: frozenset[str] = frozenset()) -> Compiled:
        """What linking ``library`` gives a C++ source."""
        if library in self.targets:  # the project's own: what it passes on
            if library in seen:
                return Compiled.CXX
            passed = [lib for lib, on, _ in self.targets[library].links if on]
            return max((self._gives(lib, seen | {library}) for lib in passed),
                       default=Compiled.CXX)
        if library in DEVICE_TARGETS:
            return Compiled.HIP
        if library in BARE_TARGETS or not library.startswith(_ROCM_NAMESPACES):
            return Compiled.CXX
        return Compiled.CXX_WITH_PLATFORM

    def _result(self) -> dict[Path, Compiled]:
        found: dict[Path, Compiled] = {}
        for target in self.targets.values():
            linked = max((self._gives(lib) for lib, _, own in target.links if own),
                         default=Compiled.CXX)
            for source in target.sources:
                if source.suffix in CXX_SUFFIXES:
                    lowest(found, source, self._source(source, linked))
        for source, language in self.languages.items():
            if source.suffix in CXX_SUFFIXES and source not in found:
                found[source] = self._source(source, Compiled.CXX)
        return found

    def _source(self, source: Path, linked: Compiled) -> Compiled:
        if self.languages.get(source) == "HIP" or self.cxx_is_hipcc:
            return Compiled.HIP
        return linked


def _before_keyword(values: list[str]) -> list[str]:
    """The file names of a property command, up to its first keyword."""
    names: list[str] = []
    for value in values:
        if value in ("DIRECTORY", "TARGET_DIRECTORY"):
            break
        names.append(value)
    return names
