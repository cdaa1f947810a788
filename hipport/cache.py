"""Results of earlier runs, keyed by everything that decides them: the file's
bytes, hipport's version, the catalogue (and user rules), the settings and the
file's kind.  A stale entry can never be served: any change changes the key.

One SQLite database in the cache folder (see ``hipport.cachedir``) holds the
entries: a thousand small files cost far more to create than the conversions
they save, a database insert costs microseconds.  Only the main process opens
it (workers send their results back), writes go in batched transactions, and
any trouble -- a damaged entry, a database that is not one, a lock held too
long by another run -- makes the cache step aside: results are recomputed,
never wrong.  The folder is safe to delete at any time."""
from __future__ import annotations

import hashlib
import pickle
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from hipport.cachedir import cache_dir
from hipport.convert import ConversionResult
from hipport.findings import LocatedFinding
from hipport.score import FileStats

FORMAT = "results-2"
# Entries kept; past it, the oldest are dropped (a 10,000-file tree fits).
CAPACITY = 50_000
_BATCH = 256  # inserts per transaction


@dataclass(frozen=True)
class Entry:
    output: bytes | None  # None: unchanged
    findings: tuple[LocatedFinding, ...]
    stats: FileStats
    declared: frozenset[str]


def encode(result: ConversionResult) -> bytes:
    entry = Entry(result.output if result.changed else None, result.findings, result.stats,
                  result.declared)
    return pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)


def decode(blob: bytes) -> Entry | None:
    """The entry in ``blob``, or None when it is damaged or of another version."""
    try:
        entry = pickle.loads(blob)
    except Exception:
        return None
    return entry if isinstance(entry, Entry) else None


def as_result(entry: Entry, data: bytes) -> ConversionResult:
    output = data if entry.output is None else entry.output
    return ConversionResult(data, output, entry.findings, entry.stats, entry.declared)


class ResultCache:
    def __init__(self, context: str, root: Path | None = None) -> None:
        self.path = (root or cache_dir()) / f"{FORMAT}.sqlite3"
        self.context = hashlib.sha256(context.encode()).digest()
        self._db: sqlite3.Connection | None = None
        self._failed = False
        self._pending: list[tuple[str, bytes]] = []

    def key(self, data: bytes, kind: str) -> str:
        h = hashlib.sha256(self.context)
        h.update(kind.encode())
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def get(self, key: str) -> Entry | None:
        db = self._connection()
        if db is None:
            return None
        try:
            row = db.execute("SELECT value FROM results WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        return decode(row[0]) if row is not None else None

    def is_empty(self) -> bool:
        """No entry at all (a first run): looking files up would be wasted."""
        db = self._connection()
        if db is None:
            return True
        try:
            return db.execute("SELECT 1 FROM results LIMIT 1").fetchone() is None
        except sqlite3.Error:
            return True

    def put(self, key: str, blob: bytes) -> None:
        self._pending.append((key, blob))
        if len(self._pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        pending, self._pending = self._pending, []
        db = self._connection()
        if db is None or not pending:
            return
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO results (key, value) VALUES (?, ?)",
                               pending)
                (count,) = db.execute("SELECT count(*) FROM results").fetchone()
                if count > CAPACITY:
                    db.execute("DELETE FROM results WHERE rowid IN (SELECT rowid FROM results "
                               "ORDER BY rowid LIMIT ?)", (count - CAPACITY,))
        except sqlite3.Error:
            pass  # locked by another run, disk full...: still correct, only slower

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    def _connection(self) -> sqlite3.Connection | None:
        if self._db is not None or self._failed:
            return self._db
        try:
            self._db = self._open()
        except sqlite3.OperationalError:
            self._failed = True  # locked by another run too long, unwritable folder...
        except sqlite3.DatabaseError:
            # Not a database (a damaged or foreign file): it is only a cache.
            try:
                self.path.unlink()
                self._db = self._open()
            except (OSError, sqlite3.Error):
                self._failed = True
        except OSError:
            self._failed = True  # no cache folder
        return self._db

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=5)
        try:
            db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value BLOB)")
        except sqlite3.Error:
            db.close()
            raise
        return db
