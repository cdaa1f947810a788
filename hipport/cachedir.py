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
