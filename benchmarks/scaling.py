"""The issue-9 benchmark table: conversion cost at 1x, 10x and 100x the seed
corpus, with 1 and 2 processes, cold and cached.

    python benchmarks/scaling.py [--scales 1 10 100] [--repeat 2] [--out FILE] [--out-root DIR]

Each measurement runs `hipport convert CORPUS -o OUT --force` as a fresh
process (start-up included), as ``run.py`` does: "cold" with an empty result
cache and output folder, "cached" the same command again on the unchanged
tree.  The compiled catalogue is prepared beforehand (a one-time cost per
installation, about 1 s).  Best of ``--repeat`` runs.
"""
from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.corpus import generate  # noqa: E402
from benchmarks.run import measure  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--out-root", type=Path, help="folder for outputs and caches (run.py)")
    args = parser.parse_args()
    rows = ["| scale | files | MB | lines | jobs | cold s | MB/s | lines/s | files/s | cached s |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    work = Path(tempfile.mkdtemp(prefix="hipport-bench-"))
    try:
        for scale in args.scales:
            corpus = work / f"x{scale}"
            files, size = generate(corpus, scale)
            lines = sum(p.read_bytes().count(b"\n") for p in corpus.rglob("*") if p.is_file())
            for jobs in (1, 2):
                cold_run, cached_run = measure(corpus, jobs, args.repeat, args.out_root)
                cold, cached = cold_run.wall, cached_run.wall
                mb = size / 1e6
                rows.append(f"| {scale}x | {files} | {mb:.2f} | {lines} | {jobs} | {cold:.2f} | "
                            f"{mb / cold:.2f} | {lines / cold:.0f} | {files / cold:.0f} | "
                            f"{cached:.2f} |")
                print(rows[-1], flush=True)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        rows.append("")
        rows.append(f"peak RSS of any run: {peak:.0f} MB")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join(rows) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
