"""Measure what a pre-commit hook user waits for: `hipport check FILES` as a
fresh process (interpreter start, imports, catalogue load, analysis), for 1
and 20 typical files.

    python benchmarks/check_latency.py [--repeat 10] [--files 1 20]

The files are the bundled examples and test cases (cycled to reach the
count), copied into a temporary git repository with a baseline of their
current violations, as a hook sees them.  Prints min / median / max wall
time per file count, plus the cost of `import hipport.cli` alone.

hipport keeps results of unchanged files in its cache folder; a commit's
files have changed, so "cold" runs empty that result cache before each run
(the compiled catalogue is kept: it is built once per hipport version).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.corpus import seed_files  # noqa: E402


def make_tree(folder: Path, count: int) -> list[str]:
    seeds = seed_files()
    names = []
    for i in range(count):
        src = seeds[i % len(seeds)]
        name = f"f{i:03d}_{src.name}"
        (folder / name).write_bytes(src.read_bytes())
        names.append(name)
    return names


CACHE = Path(tempfile.mkdtemp(prefix="hipport-bench-cache-"))
ENV = {**os.environ, "HIPPORT_CACHE_DIR": str(CACHE)}


def forget_results() -> None:
    for folder in CACHE.glob("results-*"):
        shutil.rmtree(folder, ignore_errors=True)


def timed(argv: list[str], cwd: Path, expect: tuple[int, ...] = (0, 1),
          cold: bool = False) -> float:
    if cold:
        forget_results()
    start = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=ENV, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in expect:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n"
                         f"{proc.stderr.decode(errors='replace')}")
    return elapsed


def series(argv: list[str], cwd: Path, repeat: int, cold: bool = False) -> list[float]:
    timed(argv, cwd)  # warm the OS file cache and the catalogue cache first
    return [timed(argv, cwd, cold=cold) for _ in range(repeat)]


def line(label: str, times: list[float]) -> str:
    return (f"{label:<40} min {min(times) * 1000:7.0f} ms   median "
            f"{statistics.median(times) * 1000:7.0f} ms   max {max(times) * 1000:7.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--files", type=int, nargs="+", default=[1, 20])
    args = parser.parse_args()

    hipport = [sys.executable, "-m", "hipport"]
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} cpus"
    print(f"hipport check latency ({env_note}; {args.repeat} runs each, after one warm-up)")
    folder = Path(tempfile.mkdtemp(prefix="hipport-check-bench-"))
    try:
        print(line("python -c pass", series([sys.executable, "-c", "pass"], folder,
                                            args.repeat)))
        print(line("python -c 'import hipport.cli'",
                   series([sys.executable, "-c", "import hipport.cli"], folder, args.repeat)))
        for count in args.files:
            tree = folder / f"n{count}"
            tree.mkdir()
            subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
            names = make_tree(tree, count)
            subprocess.run([*hipport, "check", "-q", "--write-baseline", *names], cwd=tree,
                           env=ENV, check=True, capture_output=True)
            lines = sum((tree / n).read_bytes().count(b"\n") for n in names)
            what = f"{count} file{'s' if count != 1 else ''}"
            check = [*hipport, "check", "-q", *names]
            print(f"{what}, {lines} lines:")
            print(line("  hipport check (cold)", series(check, tree, args.repeat, cold=True)))
            print(line("  hipport check (unchanged files)", series(check, tree, args.repeat)))
            subprocess.run(["git", "add", "."], cwd=tree, check=True)
            staged = [*hipport, "check", "-q", "--staged", "--no-baseline", *names]
            print(line("  hipport check --staged (cold)",
                       series(staged, tree, args.repeat, cold=True)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(CACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
