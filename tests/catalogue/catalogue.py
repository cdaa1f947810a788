"""Helpers for the catalogue tests: load mappings/, resolve HIP libraries."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hipport.libraries import library_table
from hipport.table import NOT_CATALOGUE

REPO = Path(__file__).resolve().parents[2]
MAPPINGS = REPO / "mappings"

LIBRARY_TO_HIP = {lib.key: lib.rocm.key for lib in library_table().cuda}


@dataclass(frozen=True)
class Located:
    file: str
    library: str       # effective library (per-entry override applied)
    hip_library: str   # effective HIP library
    entry: dict[str, Any]

    @property
    def status(self) -> str:
        return str(self.entry.get("status", "supported"))

    @property
    def where(self) -> str:
        return f"{self.file}: {self.entry.get('cuda')}"


def yaml_files() -> list[Path]:
    """The mapping files (not the library table, nor mappings/polyfills/: other schemas)."""
    return sorted(p for p in MAPPINGS.rglob("*.yaml")
                  if p.relative_to(MAPPINGS).parts[0] not in NOT_CATALOGUE)


def load_documents() -> dict[str, dict[str, Any]]:
    return {str(p.relative_to(MAPPINGS)): yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in yaml_files()}


def all_entries(docs: dict[str, dict[str, Any]]) -> list[Located]:
    out: list[Located] = []
    for rel, doc in docs.items():
        for e in doc.get("entries", []) or []:
            lib = e.get("library", doc.get("library"))
            hip_lib = doc.get("hip_library") or LIBRARY_TO_HIP[lib]
            out.append(Located(rel, lib, hip_lib, e))
    return out


