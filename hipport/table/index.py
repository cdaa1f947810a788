"""The loaded catalogue: lookups by CUDA name.

Entries are kept as plain tuples (rows) and turned into ``Mapping`` objects
only when looked up: a conversion touches a few hundred of the 11,000+ names,
and rows load from the cache several times faster than objects."""
from __future__ import annotations

import functools
from typing import Iterator

from hipport.table.names import CandidateNames
from hipport.table.schema import Mapping, Row, Status


class MappingTable:
    def __init__(self, entries: dict[str, Mapping] | None = None,
                 rows: dict[str, Row] | None = None, digest: str = "") -> None:
        # Identifies the content (bundled catalogue + user rules) for caches.
        self.digest = digest
        self._rows: dict[str, Row] = rows if rows is not None else {}
        self._made: dict[str, Mapping] = dict(entries or {})
        if entries:
            self._rows.update((name, m.to_row()) for name, m in entries.items())

    @property
    def rows(self) -> dict[str, Row]:
        return self._rows

    @functools.cached_property
    def entries(self) -> dict[str, Mapping]:
        return {name: self._make(name, row) for name, row in self._rows.items()}

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[Mapping]:
        return iter(self.entries.values())

    def lookup(self, name: str) -> Mapping | None:
        made = self._made.get(name)
        if made is not None:
            return made
        row = self._rows.get(name)
        return None if row is None else self._make(name, row)

    def _make(self, name: str, row: Row) -> Mapping:
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = Mapping.from_row(row)
        return made

    def in_mode(self, roc: bool) -> MappingTable:
        """This table, or with ``roc`` (`--roc`) the table as it converts to
        the ROCm libraries themselves (hipport.table.roc)."""
        return self.roc_view if roc else self

    @functools.cached_property
    def roc_view(self) -> MappingTable:
        from hipport.table.roc import roc_rows

        return MappingTable(rows=roc_rows(self._rows), digest=self.digest + "+roc")

    @functools.cached_property
    def candidates(self) -> CandidateNames:
        """Names worth a look: those needing an edit or a finding, the
        include guards of CUDA headers, and anything that looks like CUDA."""
        names = [row[0] for row in self._rows.values()
                 if row[2] != "header" and needs_attention(row)]
        return CandidateNames.build(names + list(self.guards))

    @functools.cached_property
    def guards(self) -> dict[str, Mapping]:
        """CUDA macro that tells a CUDA header was included (its include
        guard) -> the header's entry, whose ``guard`` names the HIP macro."""
        out: dict[str, Mapping] = {}
        for name, row in self._rows.items():
            if row[2] == "header" and row[13] is not None:
                for macro in row[13][0]:
                    out.setdefault(macro, self._make(name, row))
        return out


def needs_attention(row: Row) -> bool:
    """Anything but a supported entry whose HIP name is its CUDA name (with
    no argument rule, and in every ROCm release) gives an edit or a finding."""
    cuda, hip, status, rule, rocm_version = row[0], row[1], row[4], row[8], row[10]
    return status != Status.SUPPORTED.value or hip != cuda or rule is not None \
        or any(key in ("added", "removed") for key, _ in rocm_version)
