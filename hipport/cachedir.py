"""Where hipport keeps caches: safe to delete at any time."""
from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """$HIPPORT_CACHE_DIR, else $XDG_CACHE_HOME/hipport, else ~/.cache/hipport."""
    explicit = os.environ.get("HIPPORT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hipport"
