"""Diagnostic codes: stable ids, kebab-case names and one-line summaries.

Each area keeps its codes in its own module under ``hipport.diagnostics``;
this module gathers them and answers lookups."""
from __future__ import annotations

from hipport.diagnostics.build import BUILD_CODES
from hipport.diagnostics.core import CORE_CODES
from hipport.diagnostics.hazards import HAZARDS_CODES
from hipport.diagnostics.model import Code, Severity
from hipport.diagnostics.polyfill import POLYFILL_CODES
from hipport.diagnostics.verify import VERIFY_CODES
from hipport.libraries import library_table

__all__ = ["Code", "Severity", "CODES", "BY_NAME", "LIBRARY_CODES", "lookup"]

_ALL = CORE_CODES + VERIFY_CODES + HAZARDS_CODES + BUILD_CODES + POLYFILL_CODES
CODES: dict[str, Code] = {c.code: c for c in _ALL}
BY_NAME: dict[str, Code] = {c.name: c for c in _ALL}
assert len(CODES) == len(BY_NAME) == len(_ALL), "duplicate diagnostic code or name"


# Library id (as in mappings/*.yaml) -> code used for its renames.
LIBRARY_CODES: dict[str, str] = {lib.key: lib.code for lib in library_table().cuda}


def lookup(code_or_name: str) -> Code | None:
    return CODES.get(code_or_name.upper()) or BY_NAME.get(code_or_name.lower())
