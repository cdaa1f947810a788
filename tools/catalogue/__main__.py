"""Command line: regenerate/extend the mapping catalogue.

    python -m tools.catalogue \
        [--cuda-include /usr/local/cuda/include --cuda-include /tmp/nvlibs/nvidia/cu13/include] \
        --hipify-tables /path/to/HIPIFY/docs/tables [--sysroot DIR] [--refresh]

See tools/catalogue/README.md.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from hipport.table.versions import VERIFIED_RELEASES, release_text

from .curated import CURATED, DEVICE_BUILTINS
from .evidence import evidence_for
from .hipify_tables import read_tables
from .inventory import extract_all, write_inventory
from .propose import propose, propose_header, target_file
from .refresh import Changes, refresh
from .yaml_io import load_tree, write_document

REPO = Path(__file__).resolve().parents[2]

_NAMESPACES: list[dict[str, Any]] = [
    {"cuda": "cub", "hip": "hipcub", "kind": "namespace", "library": "cub",
     "note": "hipCUB mirrors CUB's API in namespace hipcub"},
    {"cuda": "thrust", "hip": "thrust", "kind": "namespace", "library": "thrust",
     "note": "rocThrust keeps namespace thrust and the thrust/*.h headers; no edit needed"},
    {"cuda": "cooperative_groups", "hip": "cooperative_groups", "kind": "namespace",
     "library": "cooperative_groups",
     "note": "HIP keeps namespace cooperative_groups (include hip/hip_cooperative_groups.h)"},
]


def _curated_library(name: str) -> str:
    if name.startswith("nvtx"):
        return "nvtx"
    if name.startswith("cuda") or name.startswith("CUDA") or name.startswith("__CUDA_R"):
        return "runtime"
    if name.startswith("__cuda_cuda"):
        return "driver"
    return "device"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.catalogue", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cuda-include", action="append", type=Path, default=[],
                    help="CUDA include dir (toolkit first, then library wheels); repeatable. "
                    "Without it, only the catalogued names are brought up to date")
    ap.add_argument("--hipify-tables", type=Path,
                    help="HIPIFY docs/tables folder (facts: HIP names and versions)")
    ap.add_argument("--sysroot", action="append", type=Path, default=[],
                    help="an unpacked Debian root with HIP headers (usr/include): one more "
                    "header set, its release read from hip/hip_version.h; repeatable")
    ap.add_argument("--mappings", type=Path, default=REPO / "mappings")
    ap.add_argument("--refresh", action="store_true",
                    help="re-propose every entry, overwriting hand edits (first run only)")
    args = ap.parse_args(argv)

    cuda_dirs = [d for d in args.cuda_include if d.is_dir()]
    inventories = extract_all(cuda_dirs) if cuda_dirs else {}
    facts = read_tables(args.hipify_tables) if args.hipify_tables else {}
    ev = evidence_for(REPO, args.sysroot)
    for headers in ev.sets:
        print(f"ROCm {headers.label} headers ({headers.origin}): "
              + ", ".join(str(r) for r in headers.roots), file=sys.stderr)
    missing = [release_text(r) for r in VERIFIED_RELEASES if r not in ev.releases]
    if missing:
        print(f"warning: no headers for ROCm {', '.join(missing)}; the ranges written will "
              "not say what those releases have (see tools/catalogue/README.md)", file=sys.stderr)

    tree = load_tree(args.mappings) if args.mappings.is_dir() else {}
    existing: dict[str, tuple[str, dict[str, Any]]] = {}
    files: dict[str, list[dict[str, Any]]] = defaultdict(list)
    file_library: dict[str, str] = {}
    changes = Changes()
    touched: Counter[str] = Counter()
    for rel, doc in tree.items():
        if rel.startswith("inventory/") or not isinstance(doc, dict) or "library" not in doc:
            continue  # the inventory, the library table (rocm-libraries.yaml), polyfills
        file_library[rel] = doc["library"]
        for e in doc.get("entries", []):
            existing[e["cuda"]] = (rel, e)
            if args.refresh:
                continue
            fact = facts.get(e["cuda"], (None, None))[1]
            new = refresh(e, doc["library"], fact, ev, changes)
            if new != e:
                touched[rel] += 1
            files[rel].append(new)

    # every CUDA name we know: name -> (library, kind, origin header)
    known: dict[str, tuple[str, str | None, str | None]] = {}
    for lib_name, inv in inventories.items():
        if lib_name == "headers":
            continue
        for name, declared_kind in inv.names.items():
            known.setdefault(name, (lib_name, declared_kind, inv.origin.get(name)))
    if inventories:
        for name, (lib_name, _fact) in facts.items():
            known.setdefault(name, (lib_name, None, None))
        for name, builtin_kind in DEVICE_BUILTINS.items():
            known.setdefault(name, ("device", builtin_kind, None))
        for name, entry in CURATED.items():
            known.setdefault(name, (_curated_library(name), entry.get("kind"), None))

    added: Counter[str] = Counter()

    def place(rel: str, library: str, entry: dict[str, Any]) -> None:
        if entry["cuda"] in existing and not args.refresh:
            return
        file_library.setdefault(rel, library)
        files[rel].append(entry)
        added[rel] += 1

    for name, (lib_name, kind, origin) in sorted(known.items()):
        fact = facts.get(name, (None, None))[1]
        entry = propose(name, lib_name, kind, fact, ev)
        place(target_file(lib_name, name, entry["kind"], origin), lib_name, entry)
    if "headers" in inventories:
        for header in sorted(inventories["headers"].names):
            place("headers.yaml", "headers", propose_header(header, ev))
    if inventories:
        for ns in _NAMESPACES:
            place("namespaces.yaml", "headers", dict(ns))

    for rel, entries in sorted(files.items()):
        if args.refresh or added[rel] or touched[rel]:
            write_document(args.mappings / rel, file_library[rel], entries)
    for lib_name, inv in inventories.items():
        write_inventory(args.mappings / "inventory" / f"{lib_name}.txt", inv)

    print(f"added {sum(added.values())} entries in {len(added)} files; "
          f"{changes.redated} re-dated, {changes.reproposed} re-proposed", file=sys.stderr)
    for what, names in (("now mapped", changes.gained), ("no longer declared", changes.lost)):
        if names:
            print(f"{len(names)} {what}:", file=sys.stderr)
            for n in names:
                print(f"  {n}", file=sys.stderr)
    if inventories:
        gone = sorted(n for n in existing if n not in known
                      and n not in inventories["headers"].names
                      and n not in {ns["cuda"] for ns in _NAMESPACES})
        if gone:
            print(f"{len(gone)} catalogued names are no longer found in the inputs:",
                  file=sys.stderr)
            for n in gone:
                print(f"  {n} ({existing[n][0]})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
