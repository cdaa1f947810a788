"""Measure hipport's conversion speed on any tree.

    python benchmarks/run.py PATH [--jobs 1 2] [--repeat 3]

For each worker count: a full `convert -o` run (parse + match + edit + write,
findings included) into a temporary folder.  Prints files/s, lines/s, MB/s
and peak RSS (this process and its workers).
"""
from __future__ import annotations

import argparse
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hipport.commands.convert import ConvertRequest, run_convert  # noqa: E402


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


def peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def measure(path: Path, jobs: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        out = Path(tempfile.mkdtemp(prefix="hipport-bench-"))
        shutil.rmtree(out)
        start = time.perf_counter()
        code = run_convert(ConvertRequest(paths=(path,), output=out, jobs=jobs, quiet=True))
        best = min(best, time.perf_counter() - start)
        shutil.rmtree(out, ignore_errors=True)
        if code not in (0, 1):
            raise SystemExit(f"convert failed with exit code {code}")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", type=Path)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files, lines, size = tree_size(args.path)
    print(f"tree: {files} source files, {lines} lines, {size / 1e6:.2f} MB")
    print(f"{'jobs':>4} {'seconds':>8} {'files/s':>9} {'lines/s':>10} {'MB/s':>6}")
    for jobs in args.jobs:
        seconds = measure(args.path, jobs, args.repeat)
        print(f"{jobs:>4} {seconds:>8.3f} {files / seconds:>9.0f} {lines / seconds:>10.0f} "
              f"{size / 1e6 / seconds:>6.2f}", flush=True)
    print(f"peak RSS: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
