"""Loading the mapping catalogue (bundled YAML under mappings/, plus user files)."""
from __future__ import annotations

import functools
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Iterable, Iterator

from hipport.errors import MappingFileError
from hipport.table.index import MappingTable
from hipport.table.names import looks_like_cuda
from hipport.table.schema import Mapping, Status, parse_mapping_file

__all__ = ["MappingTable", "Mapping", "Status", "load_table", "bundled_table", "looks_like_cuda"]


def _bundled_root() -> Traversable:
    return resources.files("hipport") / "_mappings"


def _yaml_files(root: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for child in sorted(root.iterdir(), key=lambda c: c.name):
        rel = f"{prefix}{child.name}"
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
    files = ((f"mappings/{rel}", node.read_text(encoding="utf-8"))
             for rel, node in _yaml_files(root))
    return MappingTable(_merge_bundled(files))


def load_table(user_files: Iterable[str | Path] = ()) -> MappingTable:
    """The bundled catalogue, overridden entry by entry by the user's files
    (in the order given: a later file wins over an earlier one)."""
    table = bundled_table()
    user = list(user_files)
    if not user:
        return table
    entries = dict(table.entries)
    for path in user:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise MappingFileError(str(path), f"cannot read rules file: {exc}") from None
        own = _merge_bundled([(str(path), text)])
        entries.update(own)
    return MappingTable(entries)
