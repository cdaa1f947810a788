"""Measure hipport's conversion speed on any tree.

    python benchmarks/run.py PATH [--jobs 1 2] [--repeat 3] [--out-root DIR]
                             [--hipify-perl FILE [--hipify-quiet]]

For each worker count, `hipport convert PATH -o OUT` runs as a fresh process
(start-up included; parse + match + edit + write, findings included):

* cold: an empty result cache and an empty output folder;
* cached: the same command again, unchanged tree, same output folder.

The best of ``--repeat`` runs is kept (this machine's disk and neighbours are
noisy).  Prints seconds, files/s, lines/s, MB/s and the peak RSS of any
process.  ``--out-root`` puts outputs and caches on another file system (e.g.
/dev/shm, to separate the disk's cost of creating files from hipport's).

``--hipify-perl FILE`` runs that hipify-perl script in the same run, side by
side, on the same source files (not the build files, which it does not
convert), 200 files per process as HIPIFY's own hipconvertinplace-perl.sh
hands them over, output to /dev/null, and prints the ratio of its time to
hipport's cold run, in wall and in CPU seconds (user + system, children
included: the machine is shared).  By default hipify-perl warns about every
CUDA name it does not know, as hipport reports its findings;
``--hipify-quiet`` adds its ``-quiet-warnings`` (its fastest mode).
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
from typing import NamedTuple

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


def sources(path: Path) -> list[Path]:
    """The C/C++/CUDA sources hipport converts under ``path`` (no build files)."""
    from hipport.buildfiles import detect_build_kind
    from hipport.files import Selection, SourcePath, discover

    return [item.path for item in discover([path], Selection())
            if isinstance(item, SourcePath) and detect_build_kind(item.path) is None]


class Timed(NamedTuple):
    wall: float
    cpu: float  # user + system of the command and its children


def timed(argv: list[str], env: dict[str, str] | None = None,
          ok: tuple[int, ...] = (0, 1)) -> Timed:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, errors="replace")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        raise SystemExit(f"{argv[0]} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return Timed(wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def convert(path: Path, out: Path, cache: Path, jobs: int) -> Timed:
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache))
    return timed([sys.executable, "-m", "hipport", "convert", str(path), "-o", str(out),
                  "--force", "-q", "-j", str(jobs)], env)


def hipify(script: Path, files: list[Path], quiet: bool) -> Timed:
    """hipify-perl over ``files``, 200 a process, one process after another."""
    wall = cpu = 0.0
    options = ["-quiet-warnings"] if quiet else []
    for at in range(0, len(files), 200):
        run = timed(["perl", str(script), *options, *map(str, files[at:at + 200])], ok=(0,))
        wall, cpu = wall + run.wall, cpu + run.cpu
    return Timed(wall, cpu)


def prepare_catalogue(cache: Path) -> None:
    """The compiled catalogue is built once per installation (about 1 s)."""
    subprocess.run([sys.executable, "-m", "hipport", "mappings", "stats"], capture_output=True,
                   env=dict(os.environ, HIPPORT_CACHE_DIR=str(cache)), check=True)


def best(runs: list[Timed]) -> Timed:
    return Timed(min(r.wall for r in runs), min(r.cpu for r in runs))


def measure(path: Path, jobs: int, repeat: int, root: Path | None) -> tuple[Timed, Timed]:
    cold: list[Timed] = []
    cached: list[Timed] = []
    for _ in range(repeat):
        work = Path(tempfile.mkdtemp(prefix="hipport-bench-", dir=root))
        try:
            prepare_catalogue(work / "cache")
            cold.append(convert(path, work / "out", work / "cache", jobs))
            cached.append(convert(path, work / "out", work / "cache", jobs))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return best(cold), best(cached)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", type=Path)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out-root", type=Path, help="folder for outputs and caches")
    parser.add_argument("--hipify-perl", type=Path, metavar="FILE",
                        help="also run this hipify-perl script on the same sources")
    parser.add_argument("--hipify-quiet", action="store_true",
                        help="run hipify-perl with -quiet-warnings")
    args = parser.parse_args()
    files, lines, size = tree_size(args.path)
    print(f"tree: {files} source files, {lines} lines, {size / 1e6:.2f} MB")
    print(f"{'jobs':>4} {'cold s':>7} {'cpu s':>6} {'files/s':>8} {'lines/s':>8} {'MB/s':>5} "
          f"{'cached s':>8}")
    colds: dict[int, Timed] = {}
    for jobs in args.jobs:
        cold, cached = measure(args.path, jobs, args.repeat, args.out_root)
        colds[jobs] = cold
        print(f"{jobs:>4} {cold.wall:>7.2f} {cold.cpu:>6.2f} {files / cold.wall:>8.0f} "
              f"{lines / cold.wall:>8.0f} {size / 1e6 / cold.wall:>5.2f} {cached.wall:>8.2f}",
              flush=True)
    print(f"peak RSS of any run: {peak_rss_mb():.0f} MB")
    if args.hipify_perl is not None:
        only = sources(args.path)
        mb = sum(p.stat().st_size for p in only) / 1e6
        perl = best([hipify(args.hipify_perl, only, args.hipify_quiet)
                     for _ in range(args.repeat)])
        mode = "-quiet-warnings" if args.hipify_quiet else "warnings on"
        print(f"hipify-perl ({mode}) on the {len(only)} sources ({mb:.2f} MB, no build files): "
              f"{perl.wall:.2f} s wall, {perl.cpu:.2f} CPU s, {mb / perl.wall:.2f} MB/s")
        for jobs, cold in colds.items():
            print(f"  hipify-perl / hipport cold -j {jobs} (sources and build files, findings): "
                  f"{perl.wall / cold.wall:.2f}x wall, {perl.cpu / cold.cpu:.2f}x CPU")


if __name__ == "__main__":
    main()
