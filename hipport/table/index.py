"""The loaded catalogue: lookups by CUDA name."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterator

from hipport.table.names import CandidateNames
from hipport.table.schema import Mapping, Status


@dataclass(eq=False)
class MappingTable:
    entries: dict[str, Mapping] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Mapping]:
        return iter(self.entries.values())

    def lookup(self, name: str) -> Mapping | None:
        return self.entries.get(name)

    @functools.cached_property
    def candidates(self) -> CandidateNames:
        """Names worth a look: those needing an edit or a finding, and
        anything that looks like CUDA."""
        return CandidateNames.build(
            m.cuda for m in self.entries.values()
            if m.kind != "header" and (m.renames or m.status is not Status.SUPPORTED)
        )
