"""Results of earlier runs, keyed by everything that decides them: the file's
bytes, hipport's version, the catalogue (and user rules), the settings and the
file's kind.  A stale entry can never be served: any change changes the key.
Entries are written atomically; an unreadable one is ignored and recomputed.
The folder (see ``hipport.cachedir``) is safe to delete at any time."""
from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path

from hipport.cachedir import cache_dir
from hipport.convert import ConversionResult
from hipport.findings import LocatedFinding
from hipport.score import FileStats
from hipport.writing import write_atomic

FORMAT = "results-1"


@dataclass(frozen=True)
class _Entry:
    output: bytes | None  # None: unchanged
    findings: tuple[LocatedFinding, ...]
    stats: FileStats
    declared: frozenset[str]


class ResultCache:
    def __init__(self, context: str, root: Path | None = None) -> None:
        self.root = (root or cache_dir()) / FORMAT
        self.context = hashlib.sha256(context.encode()).digest()

    def key(self, data: bytes, kind: str) -> str:
        h = hashlib.sha256(self.context)
        h.update(kind.encode())
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key[2:]}.pickle"

    def get(self, key: str, data: bytes) -> ConversionResult | None:
        try:
            entry = pickle.loads(self._path(key).read_bytes())
        except Exception:  # missing, truncated, or written by another version
            return None
        if not isinstance(entry, _Entry):
            return None
        output = data if entry.output is None else entry.output
        return ConversionResult(data, output, entry.findings, entry.stats, entry.declared)

    def put(self, key: str, result: ConversionResult) -> None:
        entry = _Entry(result.output if result.changed else None, result.findings,
                       result.stats, result.declared)
        try:
            write_atomic(self._path(key), pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL),
                         durable=False)
        except OSError:
            pass  # no writable cache folder: still correct, only slower
