"""Loading the mapping catalogue (bundled YAML under mappings/, plus user files)."""
from __future__ import annotations

import functools
import hashlib
import itertools
import marshal
import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Iterable, Iterator

from hipport.cachedir import cache_dir, prune_versions, read_cached
from hipport.errors import MappingFileError
from hipport.filenames import shown_path
from hipport.libraries import DATA_FILE as LIBRARY_DATA_FILE
from hipport.table.index import MappingTable
from hipport.table.names import looks_like_cuda
from hipport.table.schema import (
    ROW_LENGTH,
    SCHEMA_ID,
    Mapping,
    Row,
    Status,
)
from hipport.version import __version__
from hipport.writing import write_atomic

__all__ = ["MappingTable", "Mapping", "Status", "load_table", "bundled_table", "looks_like_cuda"]


def parse_mapping_file(text: str, path: str) -> list[Mapping]:
    """The entries of one mapping file (YAML, read by ``hipport.table.yaml_file``:
    a run with the compiled catalogue cached never imports the YAML parser)."""
    from hipport.table.yaml_file import parse_mapping_file as parse

    return parse(text, path)


def _bundled_root() -> Traversable:
    return resources.files("hipport") / "_mappings"


# Data under mappings/ that is not a catalogue of names: the library table,
# and mappings/polyfills/, the fallbacks of the polyfill header
# (hipport.polyfills) in their own schema.
POLYFILLS_DIR = "polyfills"
NOT_CATALOGUE = frozenset({LIBRARY_DATA_FILE, POLYFILLS_DIR})


def _yaml_files(root: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for child in sorted(root.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
        if rel in NOT_CATALOGUE:
            continue
        if child.is_dir():
            yield from _yaml_files(child, rel + "/")
        elif child.name.endswith((".yaml", ".yml")):
            yield rel, child


def _merge_bundled(files: Iterable[tuple[str, str]]) -> dict[str, Mapping]:
    merged: dict[str, Mapping] = {}
    for path, text in files:
        for entry in parse_mapping_file(text, path):
            previous = merged.get(entry.cuda)
            if previous is not None:
                raise MappingFileError(
                    path, f"duplicate CUDA name {entry.cuda!r} (also at {previous.origin})",
                    int(entry.origin.rsplit(":", 1)[1]),
                )
            merged[entry.cuda] = entry
    return merged


@functools.lru_cache(maxsize=1)
def bundled_table() -> MappingTable:
    root = _bundled_root()
    if not root.is_dir():
        raise MappingFileError(str(root), "the bundled mapping catalogue is missing "
                               "(a broken installation: reinstall hipport)")
    files = [(f"mappings/{rel}", node.read_text(encoding="utf-8"))
             for rel, node in _yaml_files(root)]
    # Parsing 11,000+ YAML entries takes most of a second; the validated
    # result is kept in the cache folder under a hash of the files' text, so a
    # changed catalogue is never served stale and a deleted cache costs one parse.
    digest = catalogue_digest(files)
    cached = _load_cached(digest)
    if cached is not None:
        return MappingTable(rows=cached, digest=digest)
    table = MappingTable(_merge_bundled(files), digest=digest)
    _store_cached(digest, table.rows)
    return table


def catalogue_digest(files: Iterable[tuple[str, str]]) -> str:
    h = hashlib.sha256(f"{__version__}|{SCHEMA_ID}|{sys.version}".encode())
    for path, text in files:
        h.update(path.encode())
        h.update(b"\0")
        h.update(text.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def _cache_file(digest: str) -> Path:
    return cache_dir() / f"catalogue-{digest}.marshal"


def _load_cached(digest: str) -> dict[str, Row] | None:
    # marshal (plain tuples, the digest includes the Python version) loads
    # several times faster than pickled objects.
    try:
        rows = marshal.loads(read_cached(_cache_file(digest)))
    except Exception:  # missing, unreadable or damaged: parse instead
        return None
    if not isinstance(rows, dict) or not all(isinstance(r, tuple) and len(r) == ROW_LENGTH
                                             for r in itertools.islice(rows.values(), 50)):
        return None
    return rows


def _store_cached(digest: str, rows: dict[str, Row]) -> None:
    try:
        target = _cache_file(digest)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, marshal.dumps(rows))
        prune_versions(target)
    except (OSError, ValueError):
        pass  # a read-only home: no cache, still correct


def read_mapping_text(path: str | Path, what: str = "mapping file") -> str:
    """The text of a user's mapping file, or an error that names the file
    (never Python's own words: `'utf-8' codec can't decode byte 0xff...`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise MappingFileError(shown_path(path), f"cannot read {what}: {reason}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise MappingFileError(
            shown_path(path), f"the {what} is not UTF-8 (byte 0x{data[exc.start]:02x}); "
            "save it as UTF-8", line) from None


def load_table(user_files: Iterable[str | Path] = ()) -> MappingTable:
    """The bundled catalogue, overridden entry by entry by the user's files
    (in the order given: a later file wins over an earlier one)."""
    table = bundled_table()
    user = list(user_files)
    if not user:
        return table
    rows = dict(table.rows)
    texts = []
    for path in user:
        text = read_mapping_text(path, "rules file")
        own = _merge_bundled([(str(path), text)])
        rows.update((name, m.to_row()) for name, m in own.items())
        texts.append((str(path), text))
    return MappingTable(rows=rows, digest=table.digest + catalogue_digest(texts))
