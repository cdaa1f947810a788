"""Measure hipport's conversion speed on any tree.

    python benchmarks/run.py PATH [--jobs 1 2] [--repeat 3] [--out-root DIR]

For each worker count, `hipport convert PATH -o OUT` runs as a fresh process
(start-up included; parse + match + edit + write, findings included):

* cold: an empty result cache and an empty output folder;
* cached: the same command again, unchanged tree, same output folder.

The best of ``--repeat`` runs is kept (this machine's disk and neighbours are
noisy).  Prints seconds, files/s, lines/s, MB/s and the peak RSS of any
process.  ``--out-root`` puts outputs and caches on another file system (e.g.
/dev/shm, to separate the disk's cost of creating files from hipport's).
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def tree_size(path: Path) -> tuple[int, int, int]:
    from hipport.files import Selection, SourcePath, discover

    files = lines = size = 0
    for item in discover([path], Selection()):
        if isinstance(item, SourcePath):
            data = item.path.read_bytes()
            files += 1
            lines += data.count(b"\n")
            size += len(data)
    return files, lines, size


def convert(path: Path, out: Path, cache: Path, jobs: int) -> float:
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache))
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "hipport", "convert", str(path), "-o", str(out),
                           "--force", "-q", "-j", str(jobs)], env=env, capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"hipport failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return seconds


def prepare_catalogue(cache: Path) -> None:
    """The compiled catalogue is built once per installation (about 1 s)."""
    subprocess.run([sys.executable, "-m", "hipport", "mappings", "stats"], capture_output=True,
                   env=dict(os.environ, HIPPORT_CACHE_DIR=str(cache)), check=True)


def measure(path: Path, jobs: int, repeat: int, root: Path | None) -> tuple[float, float]:
    cold = cached = float("inf")
    for _ in range(repeat):
        work = Path(tempfile.mkdtemp(prefix="hipport-bench-", dir=root))
        try:
            prepare_catalogue(work / "cache")
            cold = min(cold, convert(path, work / "out", work / "cache", jobs))
            cached = min(cached, convert(path, work / "out", work / "cache", jobs))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return cold, cached


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out-root", type=Path, help="folder for outputs and caches")
    args = parser.parse_args()
    files, lines, size = tree_size(args.path)
    print(f"tree: {files} source files, {lines} lines, {size / 1e6:.2f} MB")
    print(f"{'jobs':>4} {'cold s':>7} {'files/s':>8} {'lines/s':>8} {'MB/s':>5} {'cached s':>8}")
    for jobs in args.jobs:
        cold, cached = measure(args.path, jobs, args.repeat, args.out_root)
        print(f"{jobs:>4} {cold:>7.2f} {files / cold:>8.0f} {lines / cold:>8.0f} "
              f"{size / 1e6 / cold:>5.2f} {cached:>8.2f}", flush=True)
    print(f"peak RSS of any run: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
