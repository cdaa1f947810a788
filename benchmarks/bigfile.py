"""Time and peak memory of `hipport convert FILE -o OUT` on one huge `.cu`
file (issue 31: 50 MB, 365,000 lines took 381 s and 9.2 GB).

    python benchmarks/bigfile.py                 # 5 MB and 50 MB
    python benchmarks/bigfile.py --mb 5 --keep /tmp/big   # keep FILE and OUT

The file is the bundled examples' `.cu` files repeated with their names
varied (kernels, runtime calls, launches, macros, comments, strings), each
copy's top-level names suffixed so that no two copies define the same one.
Each run is a fresh process with an empty result cache; prints wall time,
CPU time and the peak resident set size of the converting process (its
workers included), and the bytes of peak memory per input byte."""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_NAMES = re.compile(r"\b(__global__\s+void\s+|void\s+|int\s+|float\s+|#define\s+)"
                    r"([A-Za-z_]\w*)(?=\s*[(\s])")


def sources() -> list[str]:
    texts = [p.read_text() for p in sorted((REPO / "examples").rglob("*.cu"))]
    if not texts:
        raise SystemExit("no examples/*.cu")
    return texts


def generate(path: Path, megabytes: float) -> tuple[int, int]:
    """Writes the file; (bytes, lines)."""
    texts = sources()
    names = sorted({m[2] for text in texts for m in _NAMES.finditer(text)
                    if m[2] not in ("main",)}, key=len, reverse=True)
    word = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    target = int(megabytes * 1_000_000)
    size = 0
    with path.open("w") as out:
        copy = 0
        while size < target:
            for text in texts:
                part = f"// copy {copy}: \"strings\", /* comments */ and code\n"
                part += word.sub(lambda m: f"{m[1]}_{copy}", text.replace(
                    "int main(", f"int main_{copy}("))
                out.write(part)
                size += len(part.encode())
                copy += 1
    data = path.read_bytes()
    return len(data), data.count(b"\n")


def convert(source: Path, output: Path, cache: Path) -> tuple[float, float, int, int]:
    """(wall s, CPU s, peak RSS KiB of the converting processes, exit status)."""
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "hipport", "convert", str(source), "-o",
                           str(output), "--force"], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        print(done.stderr[-2000:], file=sys.stderr)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, after.ru_maxrss, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, nargs="+", default=[5, 50])
    parser.add_argument("--keep", type=Path, help="write FILE and OUT here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hipport-bigfile-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print("   MB    lines   wall s    CPU s  peak MiB  bytes/byte  exit")
        for mb in args.mb:
            (folder / "in").mkdir(exist_ok=True)
            source = folder / "in" / f"big{mb:g}.cu"
            size, lines = generate(source, mb)
            output = folder / f"out{mb:g}"
            wall, cpu, peak, status = convert(source, output, Path(tmp) / f"cache{mb:g}")
            print(f"{size / 1e6:5.1f} {lines:8d} {wall:8.1f} {cpu:8.1f} {peak / 1024:9.0f} "
                  f"{peak * 1024 / size:11.0f} {status:5d}", flush=True)


if __name__ == "__main__":
    main()
