"""Small source trees written for a test: ``{relative name: text}``."""
from __future__ import annotations

from pathlib import Path


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Writes ``files`` under ``root`` (folders made as needed); returns ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
