"""The issue-9 benchmark table: conversion cost at 1x, 10x and 100x the seed
corpus, with 1 and 2 processes, cold and cached.

    python benchmarks/scaling.py [--scales 1 10 100] [--out benchmarks/results.md]

Each measurement runs `hipport convert CORPUS -o OUT` as a fresh process
(start-up included).  The compiled catalogue is cached beforehand (a one-time
cost per installation, about 1 s); "cold" then runs with an empty result
cache, "cached" re-runs on the unchanged tree with the results the cold run
stored.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import generate  # noqa: E402


def hipport_command() -> list[str]:
    return [sys.executable, "-m", "hipport"]


def run_once(corpus: Path, jobs: int, cache: Path) -> tuple[float, float]:
    out = Path(tempfile.mkdtemp(prefix="hipport-out-"))
    shutil.rmtree(out)
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run([*hipport_command(), "convert", str(corpus), "-o", str(out), "-q",
                           "-j", str(jobs)], env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    shutil.rmtree(out, ignore_errors=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"hipport failed ({proc.returncode}): {proc.stderr[-2000:]}")
    # ru_maxrss of children is a running maximum: report it only when it grew.
    return seconds, max(peak, before) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = ["| scale | files | MB | lines | jobs | cold s | MB/s | lines/s | files/s | cached s |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    work = Path(tempfile.mkdtemp(prefix="hipport-bench-"))
    try:
        for scale in args.scales:
            corpus = work / f"x{scale}"
            files, size = generate(corpus, scale)
            lines = sum(p.read_bytes().count(b"\n") for p in corpus.rglob("*") if p.is_file())
            cache = work / "cache"
            subprocess.run([*hipport_command(), "mappings", "stats"], capture_output=True,
                           env=dict(os.environ, HIPPORT_CACHE_DIR=str(cache)), check=True)
            for jobs in (1, 2):
                shutil.rmtree(cache / "results-1", ignore_errors=True)
                cold, _ = run_once(corpus, jobs, cache)
                cached, _ = run_once(corpus, jobs, cache)
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
