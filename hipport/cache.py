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
from typing import TypeVar

from hipport.cachedir import cache_dir
from hipport.convert import ConversionResult, effect_of
from hipport.diagnostics.model import FileEffect
from hipport.edits import Applicability, Edit, Fix
from hipport.findings import Finding, LocatedFinding
from hipport.score import FileStats
from hipport.source import Location

FORMAT = "results-2"
_T = TypeVar("_T")
# Entries kept; past it, the oldest are dropped (a 10,000-file tree fits).
CAPACITY = 50_000
_BATCH = 256  # inserts per transaction


@dataclass(frozen=True)
class Entry:
    """A conversion without its input: what is cached and what travels
    between processes."""

    output: bytes | None  # None: unchanged
    findings: tuple[LocatedFinding, ...]
    stats: FileStats
    declared: frozenset[str]

    @classmethod
    def of(cls, result: ConversionResult) -> Entry:
        return cls(result.output if result.changed else None, result.findings, result.stats,
                   result.declared)

    @property
    def effect(self) -> FileEffect:
        return effect_of(self.findings)


# Entries travel (worker to main process) and are stored as plain tuples:
# pickling dataclasses goes through Python-level reduce calls per object and
# costs three times as much (0.19 of 0.28 ms per file, the main process's
# largest share of a parallel run).
_TAG = "hipport-result-5"
_Packed = tuple[str, str, int, int, "tuple[tuple[tuple[int, int, bytes], ...], int, str] | None",
                "str | None", "str | None", "str | None", int, int, int, int, bool, "str | None"]


def encode(entry: Entry) -> bytes:
    s = entry.stats
    flat = (_TAG, entry.output, tuple([_pack(f) for f in entry.findings]),
            (s.lines, s.changed_lines, s.bytes, s.refs_converted, s.refs_unconverted,
             s.edited_lines),
            tuple(sorted(entry.declared)))
    return pickle.dumps(flat, protocol=pickle.HIGHEST_PROTOCOL)


def decode(blob: bytes) -> Entry | None:
    """The entry in ``blob``, or None when it is damaged or of another version."""
    try:
        tag, output, findings, stats, declared = pickle.loads(blob)
        if tag != _TAG:
            return None
        return Entry(output, tuple([_unpack(*f) for f in findings]), FileStats(*stats),
                     frozenset(declared))
    except Exception:
        return None


def _pack(f: LocatedFinding) -> _Packed:
    finding, fix = f.finding, f.finding.fix
    packed = None if fix is None else (
        tuple([(e.start, e.end, e.text) for e in fix.edits]), int(fix.applicability), fix.title)
    return (finding.code, finding.message, finding.start, finding.end, packed,
            finding.cuda_name, finding.hip_name, finding.library, f.location.line,
            f.location.column, f.end_location.line, f.end_location.column, f.applied,
            finding.note)


_new = object.__new__
_APPLICABILITY = {int(a): a for a in Applicability}


def _made(cls: type[_T], **fields: object) -> _T:
    """An instance of a (frozen) dataclass from trusted fields, as unpickling
    builds one: without running ``__init__`` and its per-field setattr."""
    obj = _new(cls)
    obj.__dict__.update(fields)
    return obj


def _unpack(code: str, message: str, start: int, end: int,
            packed: tuple[tuple[tuple[int, int, bytes], ...], int, str] | None,
            cuda_name: str | None, hip_name: str | None, library: str | None, line: int,
            column: int, end_line: int, end_column: int, applied: bool,
            note: str | None) -> LocatedFinding:
    fix = None
    if packed is not None:
        edits = tuple([_made(Edit, start=a, end=b, text=t) for a, b, t in packed[0]])
        fix = _made(Fix, edits=edits, applicability=_APPLICABILITY[packed[1]], title=packed[2])
    finding = _made(Finding, code=code, message=message, start=start, end=end, fix=fix,
                    cuda_name=cuda_name, hip_name=hip_name, library=library, note=note)
    return _made(LocatedFinding, finding=finding,
                 location=_made(Location, line=line, column=column),
                 end_location=_made(Location, line=end_line, column=end_column), applied=applied)


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
