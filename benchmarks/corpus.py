"""Generate a benchmark corpus by replicating the bundled examples and test
cases N times (each copy in its own folder, identifiers varied so files are
not byte-identical).

    python benchmarks/corpus.py OUT_DIR --scale 10
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCES = [REPO / "examples", REPO / "tests" / "cases"]
SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".cpp"}


def seed_files() -> list[Path]:
    return sorted(p for root in SOURCES for p in root.rglob("*")
                  if p.suffix in SUFFIXES and not p.name.endswith(".hip.cu"))


def generate(out: Path, scale: int) -> tuple[int, int]:
    if out.exists():
        shutil.rmtree(out)
    files = seed_files()
    count = size = 0
    for copy in range(scale):
        for src in files:
            rel = src.relative_to(REPO)
            target = out / f"copy{copy:04d}" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            data = src.read_bytes().replace(b"main(", f"main_{copy}(".encode())
            target.write_bytes(data)
            count += 1
            size += len(data)
    return count, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    count, size = generate(args.out, args.scale)
    print(f"{count} files, {size / 1e6:.2f} MB in {args.out}")


if __name__ == "__main__":
    main()
