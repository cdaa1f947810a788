"""(a) every mapping file validates against mappings/schema.json; (b) no
duplicate CUDA names anywhere."""
from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest

from tests.catalogue.catalogue import MAPPINGS, Located, yaml_files


def test_there_are_mapping_files() -> None:
    assert len(yaml_files()) >= 10


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(MAPPINGS)))
def test_file_matches_schema(path) -> None:
    import yaml
    schema = json.loads((MAPPINGS / "schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20])


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: str(p.relative_to(MAPPINGS)))
def test_file_is_sorted_and_small(path) -> None:
    import yaml
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    names = [e["cuda"] for e in doc["entries"]]
    assert len(names) <= 3000
    assert names == sorted(names, key=lambda n: (n.lower(), n)), "entries not in stable order"


def test_no_duplicate_cuda_names(entries: list[Located]) -> None:
    counts = Counter(loc.entry["cuda"] for loc in entries)
    dups = {n: c for n, c in counts.items() if c > 1}
    where = [loc.where for loc in entries if loc.entry["cuda"] in dups]
    assert not dups, f"duplicate cuda names: {where[:40]}"


def test_special_decisions(entries: list[Located]) -> None:
    by = {loc.entry["cuda"]: loc.entry for loc in entries}
    for name, hip in (("__shfl_down_sync", "__shfl_down"), ("__ballot_sync", "__ballot")):
        assert by[name]["hip"] == hip and by[name]["rule"] == "drop-first-argument"
    for name in ("cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"):
        assert by[name]["rule"] == "wrap-symbol-argument"
    # The symbol is the second argument of these.
    for name in ("cudaMemcpyFromSymbol", "cudaMemcpyFromSymbolAsync", "cudaGetSymbolAddress",
                 "cudaGetSymbolSize"):
        assert by[name]["rule"] == "wrap-second-symbol-argument"
    assert by["cudaMallocHost"]["hip"] == "hipHostMalloc"
    assert by["cudaMalloc"]["hip"] == "hipMalloc"
    assert by["cuda_runtime.h"]["hip"] == "hip/hip_runtime.h"
    assert by["__CUDA_ARCH__"]["applicability"] == "unsafe"
