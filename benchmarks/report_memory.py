"""Peak memory of `hipport report` on a synthetic tree (benchmarks/corpus.py).

    python benchmarks/report_memory.py --scale 330          # about 10,000 files
    python benchmarks/report_memory.py --scale 330 --jobs 1

Prints files, lines, wall time and the peak resident set size of the process
that builds the report (it holds every FileResult: findings and counts, never
file contents) and of the largest worker process.  Run it at two scales to see
how memory grows per file."""
from __future__ import annotations

import argparse
import io
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.corpus import generate  # noqa: E402
from hipport.report import render  # noqa: E402
from hipport.report.run import ReportRequest, make_report  # noqa: E402


def _mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=330)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--format", default="json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hipport-report-bench-") as tmp:
        count, size = generate(Path(tmp) / "corpus", args.scale)
        baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        report = make_report(ReportRequest((Path(tmp) / "corpus",), jobs=args.jobs))
        built = time.perf_counter()
        out = io.StringIO()
        render(args.format, report, out)
        done = time.perf_counter()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = report.totals
    print(f"{count} files ({size / 1e6:.1f} MB), {t.lines} lines, {t.refs} references, "
          f"{len(report.ledger)} ledger rows, {sum(len(f.findings) for f in report.files)} "
          "findings")
    print(f"analysis {built - start:.1f} s, {args.format} rendering {done - built:.1f} s "
          f"({len(out.getvalue()) / 1e6:.1f} MB)")
    print(f"peak RSS: report process {_mib(own):.0f} MiB (before the run {_mib(baseline):.0f} "
          f"MiB), largest worker {_mib(workers):.0f} MiB")


if __name__ == "__main__":
    main()
