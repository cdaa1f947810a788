"""(d) every public CUDA name in mappings/inventory is catalogued; prints the
per-library coverage table."""
from __future__ import annotations

from collections import Counter, defaultdict

from tests.catalogue.catalogue import MAPPINGS, Located
from tools.catalogue.inventory import read_inventory


def test_inventory_fully_catalogued(entries: list[Located], capsys) -> None:
    by_name = {loc.entry["cuda"]: loc for loc in entries}
    inv_files = sorted((MAPPINGS / "inventory").glob("*.txt"))
    assert inv_files, "mappings/inventory/*.txt missing"
    rows: list[tuple[str, int, int, int, str]] = []
    missing: dict[str, list[str]] = {}
    total = [0, 0]
    for f in inv_files:
        source, names = read_inventory(f)
        found = [n for n in names if n in by_name]
        lost = [n for n in names if n not in by_name]
        supported = sum(1 for n in found if by_name[n].status in ("supported", "deprecated"))
        rows.append((f.stem, len(names), len(found), supported, source))
        total[0] += len(names)
        total[1] += len(found)
        if lost:
            missing[f.stem] = lost
    status = Counter(loc.status for loc in entries)
    per_lib: dict[str, Counter[str]] = defaultdict(Counter)
    for loc in entries:
        per_lib[loc.library][loc.status] += 1
    with capsys.disabled():
        print("\ncatalogue coverage (inventory names -> catalogued, mapped):")
        print(f"{'library':20s} {'in headers':>10s} {'catalogued':>10s} {'mapped':>8s}  source")
        for lib, n, c, s, src in rows:
            print(f"{lib:20s} {n:10d} {c:10d} {s:8d}  {src}")
        print(f"{'total':20s} {total[0]:10d} {total[1]:10d}")
        print(f"catalogue entries: {len(entries)} {dict(status)}")
    assert not missing, {k: v[:20] for k, v in missing.items()}


def test_catalogue_size(entries: list[Located]) -> None:
    mapped = sum(1 for loc in entries if loc.status in ("supported", "deprecated"))
    assert len(entries) >= 9000
    assert mapped >= 5000
