"""The one table of CUDA libraries and their ROCm counterparts
(``mappings/rocm-libraries.yaml``): which ``library:`` a catalogue file may
name, the code of its renames, its link names, CMake targets and packages,
and what ``hipport doctor`` looks for of each ROCm library."""
from __future__ import annotations

import functools
import hashlib
import marshal
import sys
from dataclasses import dataclass
from importlib import resources
from typing import Any

from hipport.cachedir import cache_dir, prune_versions, read_cached
from hipport.errors import MappingFileError
from hipport.writing import write_atomic

SCHEMA_ID = "hipport-libraries/1"
DATA_FILE = "rocm-libraries.yaml"
_CUDA_KEYS = {"code", "rocm", "roc", "link", "cmake", "packages"}
_ROCM_KEYS = {"name", "headers", "include_dirs", "sonames", "link", "cmake_package",
              "cmake_config", "cmake_target", "version_header", "version_macros", "debian",
              "debian_since", "rocm_package"}
_UNSET = object()


@dataclass(frozen=True)
class RocmLibrary:
    key: str  # as the catalogue's ``rocm`` names it: hip, hipblas, ...
    name: str
    headers: tuple[str, ...]  # any one present will do (newest layout first)
    include_dirs: tuple[str, ...]  # include targets under these belong to it
    sonames: tuple[str, ...]  # libNAME.so; () for header-only libraries
    link: str  # what converted build files link (-l<link>); "" for header-only ones
    cmake_package: str | None  # find_package name
    cmake_config: str | None  # the CMake config directory doctor looks for
    cmake_target: str | None  # the imported target converted CMake files link
    version_header: str | None
    version_macros: tuple[str, ...]
    debian: str | None  # Debian's -dev package; None: not packaged in Debian
    rocm_package: str  # the package name in AMD's ROCm repositories
    cuda: tuple[str, ...]  # the catalogue libraries it stands in for
    debian_since: int = 12

    @property
    def target(self) -> str:
        """The imported target a converted CMake file links."""
        if self.cmake_target is None:
            raise ValueError(f"the ROCm library {self.key} has no CMake target")
        return self.cmake_target

    @property
    def extra_package(self) -> str | None:
        """The find_package a build needs for it besides ``find_package(hip)``."""
        return None if self.cmake_package in (None, "hip") else self.cmake_package

    def install_hint(self, debian: int | None = None) -> str:
        """How to install it; ``debian`` is the machine's Debian release, if any."""
        amd = f"AMD's ROCm repositories: {self.rocm_package}"
        if not self.debian:
            return f"install {self.rocm_package} from AMD's ROCm repositories (not in Debian)"
        if debian is not None and debian < self.debian_since:
            where = f"Debian {self.debian_since}" if self.debian_since <= 13 else "Debian unstable"
            return f"not packaged in Debian {debian} ({where} has {self.debian}); {amd}"
        return f"apt install {self.debian} ({amd})"


@dataclass(frozen=True)
class CudaLibrary:
    key: str  # the catalogue's ``library:``: runtime, cublas, ...
    code: str  # the diagnostic code of its renames
    rocm: RocmLibrary
    link_names: tuple[str, ...]
    cmake_targets: tuple[str, ...]
    packages: tuple[str, ...]  # find_package names of the CUDA side
    # The ROCm library `--roc` converts to instead of ``rocm`` (rocBLAS for
    # cuBLAS, where ``rocm`` is hipBLAS); None: the same in both modes.
    roc: RocmLibrary | None = None

    def target(self, roc: bool) -> RocmLibrary:
        """Its ROCm counterpart in the mode (``roc``: `--roc`)."""
        return self.roc if roc and self.roc is not None else self.rocm


@dataclass(frozen=True)
class DroppedLibrary:
    """A CUDA library converted builds no longer link (no ROCm library
    stands in for it; the sources using it stop at its headers)."""

    key: str
    code: str  # the finding's code
    why: str
    headers: tuple[str, ...]  # the CUDA headers declaring it, each unsupported
    link_names: tuple[str, ...]
    cmake_targets: tuple[str, ...]


@dataclass(frozen=True)
class LibraryTable:
    cuda: tuple[CudaLibrary, ...]  # in the order reports list them
    rocm: tuple[RocmLibrary, ...]  # in the order doctor lists them
    dropped: tuple[DroppedLibrary, ...] = ()

    @functools.cached_property
    def dropped_by_name(self) -> dict[str, DroppedLibrary]:
        """Link name or CMake target of a dropped library -> it."""
        return {name: lib for lib in self.dropped
                for name in (*lib.link_names, *lib.cmake_targets)}

    @functools.cached_property
    def cuda_keys(self) -> tuple[str, ...]:
        return tuple(lib.key for lib in self.cuda)

    @functools.cached_property
    def by_cuda(self) -> dict[str, CudaLibrary]:
        return {lib.key: lib for lib in self.cuda}

    @functools.cached_property
    def rocm_by_key(self) -> dict[str, RocmLibrary]:
        return {lib.key: lib for lib in self.rocm}

    @functools.cached_property
    def roc_libraries(self) -> dict[str, RocmLibrary]:
        """Catalogue library -> the ROCm library `--roc` converts it to, for
        those it converts otherwise than the default mode (cublas: rocblas)."""
        return {lib.key: lib.roc for lib in self.cuda if lib.roc is not None}

    @functools.cached_property
    def by_link_name(self) -> dict[str, RocmLibrary]:
        """CUDA link name (``cublas`` of ``-lcublas``) -> its ROCm library."""
        return self.link_names_in(roc=False)

    @functools.cached_property
    def by_cmake_target(self) -> dict[str, RocmLibrary]:
        return self.cmake_targets_in(roc=False)

    @functools.cached_property
    def by_cuda_package(self) -> dict[str, RocmLibrary]:
        return self.packages_in(roc=False)

    def link_names_in(self, roc: bool) -> dict[str, RocmLibrary]:
        """``by_link_name`` for a mode (``roc``: `--roc`)."""
        return {name: lib.target(roc) for lib in self.cuda for name in lib.link_names}

    def cmake_targets_in(self, roc: bool) -> dict[str, RocmLibrary]:
        return {target: lib.target(roc) for lib in self.cuda for target in lib.cmake_targets}

    def packages_in(self, roc: bool) -> dict[str, RocmLibrary]:
        return {name: lib.target(roc) for lib in self.cuda for name in lib.packages}


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> MappingFileError:
        return MappingFileError(self.path, f"{where}: {message}")

    def mapping(self, value: Any, where: str, allowed: set[str] | None = None) -> dict[str, Any]:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise self.fail(where, "expected a mapping")
        unknown = sorted(set(value) - allowed) if allowed is not None else []
        if unknown:
            raise self.fail(f"{where}.{unknown[0]}",
                            f"unknown key (allowed: {', '.join(sorted(allowed or ()))})")
        return value

    def text(self, fields: dict[str, Any], key: str, where: str,
             default: Any = _UNSET) -> Any:
        if key not in fields:
            if default is _UNSET:
                raise self.fail(f"{where}.{key}", "missing")
            return default
        value = fields[key]
        if value is None and default is not _UNSET:
            return None
        if not isinstance(value, str) or not value:
            raise self.fail(f"{where}.{key}", "expected a non-empty string")
        return value

    def texts(self, fields: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = fields.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(f"{where}.{key}", "expected a list of non-empty strings")
        return tuple(value)


def _load_yaml(text: str, path: str) -> Any:
    import yaml  # only when the text is new: most runs read the cached data

    try:
        return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        raise MappingFileError(path, f"malformed YAML: {exc}") from None


def _cached_yaml(text: str, path: str) -> Any:
    """``text`` loaded, through a marshal file in the cache folder keyed by
    the text and the Python version (the YAML parser's import alone costs
    more than the rest of the table)."""
    digest = hashlib.sha256(f"{sys.version}\0{text}".encode()).hexdigest()[:32]
    cached = cache_dir() / f"libraries-{digest}.marshal"
    try:
        return marshal.loads(read_cached(cached))
    except Exception:  # missing, unreadable or damaged: parse instead
        pass
    data = _load_yaml(text, path)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cached, marshal.dumps(data))
        prune_versions(cached)
    except (OSError, ValueError):
        pass  # a read-only home: no cache, still correct
    return data


def parse_library_table(text: str, path: str = f"mappings/{DATA_FILE}",
                        cached: bool = False) -> LibraryTable:
    reader = _Reader(path)
    data = _cached_yaml(text, path) if cached else _load_yaml(text, path)
    top = reader.mapping(data, "(top)", {"schema", "cuda", "rocm", "dropped"})
    if top.get("schema") != SCHEMA_ID:
        raise reader.fail("(top).schema", f"expected {SCHEMA_ID!r}")
    rocm_fields = reader.mapping(top.get("rocm"), "rocm")
    cuda_fields = reader.mapping(top.get("cuda"), "cuda")
    stands_in: dict[str, list[str]] = {}
    for key, value in cuda_fields.items():
        fields = reader.mapping(value, f"cuda.{key}", _CUDA_KEYS)
        stands_in.setdefault(reader.text(fields, "rocm", f"cuda.{key}"), []).append(key)
        roc = reader.text(fields, "roc", f"cuda.{key}", None)
        if roc is not None:
            stands_in.setdefault(roc, []).append(key)
    rocm = tuple(_rocm_library(reader, key, value, tuple(stands_in.get(key, ())))
                 for key, value in rocm_fields.items())
    by_key = {lib.key: lib for lib in rocm}
    cuda = []
    for key, value in cuda_fields.items():
        where = f"cuda.{key}"
        fields = reader.mapping(value, where, _CUDA_KEYS)
        target = reader.text(fields, "rocm", where)
        if target not in by_key:
            raise reader.fail(f"{where}.rocm", f"{target!r} is not a key of rocm")
        code = reader.text(fields, "code", where)
        named = any(fields.get(k) for k in ("link", "cmake", "packages"))
        if named and by_key[target].cmake_target is None:
            raise reader.fail(f"{where}.rocm", f"build files name it, so rocm.{target} needs "
                              "a cmake_target")
        roc = reader.text(fields, "roc", where, None)
        if roc is not None and roc not in by_key:
            raise reader.fail(f"{where}.roc", f"{roc!r} is not a key of rocm")
        if roc is not None and named and by_key[roc].cmake_target is None:
            raise reader.fail(f"{where}.roc", f"build files name it, so rocm.{roc} needs "
                              "a cmake_target")
        cuda.append(CudaLibrary(key, code, by_key[target], reader.texts(fields, "link", where),
                                reader.texts(fields, "cmake", where),
                                reader.texts(fields, "packages", where),
                                None if roc is None else by_key[roc]))
    dropped = tuple(_dropped_library(reader, key, value) for key, value in
                    reader.mapping(top.get("dropped", {}), "dropped").items())
    return LibraryTable(tuple(cuda), rocm, dropped)


def _dropped_library(reader: _Reader, key: str, value: Any) -> DroppedLibrary:
    where = f"dropped.{key}"
    fields = reader.mapping(value, where, {"code", "why", "headers", "link", "cmake"})
    return DroppedLibrary(key, reader.text(fields, "code", where),
                          reader.text(fields, "why", where), reader.texts(fields, "headers", where),
                          reader.texts(fields, "link", where), reader.texts(fields, "cmake", where))


def _rocm_library(reader: _Reader, key: str, value: Any, cuda: tuple[str, ...]) -> RocmLibrary:
    where = f"rocm.{key}"
    fields = reader.mapping(value, where, _ROCM_KEYS)
    since = fields.get("debian_since", 12)
    if not isinstance(since, int) or isinstance(since, bool):
        raise reader.fail(f"{where}.debian_since", "expected a Debian release number")
    package = reader.text(fields, "cmake_package", where, None)
    return RocmLibrary(
        key=key, name=reader.text(fields, "name", where),
        headers=reader.texts(fields, "headers", where),
        include_dirs=reader.texts(fields, "include_dirs", where),
        sonames=reader.texts(fields, "sonames", where),
        link=reader.text(fields, "link", where, None) or "",
        cmake_package=package,
        cmake_config=reader.text(fields, "cmake_config", where, package),
        cmake_target=reader.text(fields, "cmake_target", where, None),
        version_header=reader.text(fields, "version_header", where, None),
        version_macros=reader.texts(fields, "version_macros", where),
        debian=reader.text(fields, "debian", where, None),
        rocm_package=reader.text(fields, "rocm_package", where),
        cuda=cuda, debian_since=since)


@functools.lru_cache(maxsize=1)
def library_table() -> LibraryTable:
    """The bundled table (read once per process)."""
    node = resources.files("hipport") / "_mappings" / DATA_FILE
    return parse_library_table(node.read_text(encoding="utf-8"), cached=True)
