"""Coverage of the catalogue against the inventory of public CUDA names read
from the CUDA headers (mappings/inventory/<library>.txt)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources

from hipport.table.index import MappingTable
from hipport.table.schema import Status


@dataclass(frozen=True)
class LibraryCoverage:
    library: str
    in_headers: int  # public names found in the CUDA headers
    catalogued: int  # of those, how many have an entry
    entries: int  # entries of this library (incl. names not in the headers read)
    statuses: dict[str, int]
    source: str  # which headers the inventory was read from

    @property
    def supported(self) -> int:
        return self.statuses.get("supported", 0) + self.statuses.get("deprecated", 0)

    @property
    def coverage(self) -> float:
        return self.catalogued / self.in_headers if self.in_headers else 1.0


def _inventories() -> dict[str, tuple[str, list[str]]]:
    root = resources.files("hipport") / "_mappings" / "inventory"
    found: dict[str, tuple[str, list[str]]] = {}
    if not root.is_dir():
        return found
    for child in sorted(root.iterdir(), key=lambda c: c.name):
        if not child.name.endswith(".txt"):
            continue
        source = ""
        names = []
        for line in child.read_text(encoding="utf-8").splitlines():
            if line.startswith("# read-from:"):
                source = line.split(":", 1)[1].strip()
            elif line and not line.startswith("#"):
                names.append(line.strip())
        found[child.name[:-4]] = (source, names)
    return found


def coverage(table: MappingTable) -> list[LibraryCoverage]:
    per_library: dict[str, Counter[str]] = {}
    for m in table:
        per_library.setdefault(m.library, Counter())[m.status.value] += 1
    inventories = _inventories()
    rows = []
    for library in sorted(set(per_library) | set(inventories)):
        source, names = inventories.get(library, ("", []))
        statuses = per_library.get(library, Counter())
        rows.append(LibraryCoverage(
            library=library,
            in_headers=len(names),
            catalogued=sum(1 for n in names if table.lookup(n) is not None),
            entries=sum(statuses.values()),
            statuses={s.value: statuses.get(s.value, 0) for s in Status},
            source=source,
        ))
    return rows
