"""Where hipport keeps caches: safe to delete at any time."""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path


def cache_dir() -> Path:
    """$HIPPORT_CACHE_DIR, else $XDG_CACHE_HOME/hipport, else ~/.cache/hipport."""
    explicit = os.environ.get("HIPPORT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hipport"


@functools.cache
def code_digest() -> str:
    """A digest of hipport's own code (each module's path, size and
    modification time): a cached result made by other code -- an edited
    checkout, a new release with the same version number -- is never served."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        try:
            st = path.stat()
        except OSError:
            continue
        digest.update(f"{path.relative_to(package)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:16]


# How many versions of a derived file (catalogue-*.marshal, one per catalogue
# and Python version) are kept: every upgrade and every set of user rules
# makes a new one (about 5 MB), and nothing else ever removes the old ones.
KEEP_VERSIONS = 6


def read_cached(path: Path) -> bytes:
    """``path``'s bytes, its modification time set to now: the versions used
    last are the ones ``prune_versions`` keeps. OSError when it cannot be read."""
    data = path.read_bytes()
    try:
        os.utime(path)
    except OSError:
        pass  # a read-only cache still serves
    return data


def prune_versions(kept: Path, keep: int = KEEP_VERSIONS) -> None:
    """Remove all but the ``keep`` most recently used files of ``kept``'s kind
    (the name up to its first ``-``) in its folder; ``kept`` always stays."""
    prefix = kept.name.split("-", 1)[0] + "-"
    try:
        others = [(p.stat().st_mtime_ns, p) for p in kept.parent.iterdir()
                  if p.name.startswith(prefix) and p.suffix == kept.suffix and p != kept]
    except OSError:
        return
    others.sort(reverse=True)
    for _, path in others[keep - 1:]:
        try:
            path.unlink()
        except OSError:
            pass  # another process's, or gone already
