"""Calibrate ``hipport report``'s effort estimate on programs ported by hand
(docs/effort.md says what was measured and what came out).

    python benchmarks/effort_calibration.py prepare CORPUS HANDFIX
    # convert and build each program with benchmarks/endtoend.py (HANDFIX/corpus
    # as its corpus), copy HANDFIX/work/converted/rocm-6.4/NAME to
    # HANDFIX/work/fixed/rocm-6.4/NAME, fix it by hand, rebuild it with
    # endtoend.py --no-convert until it builds, and note the errors met in
    # HANDFIX/notes.json
    python benchmarks/effort_calibration.py measure HANDFIX [--basis static|units|build]
    python benchmarks/effort_calibration.py fit FILE

CORPUS is realworld.py's (one folder per public repository; docs/corpus.md).
A *program* is one build target of it together with the shared helper
folders its repository keeps beside it (``PROGRAMS``), copied to
HANDFIX/corpus/NAME with their paths in the repository, so its build files
find the helpers where they were.  ``measure`` compares, per program, the
converted tree with the hand-fixed one (lines changed by hand), reads the
errors noted, makes the report of the original program (static, and with
``--verify`` built) and prints estimate against measurement with Spearman's
rank correlation; ``fit`` fits the weights of the model's terms to the
measured days by non-negative least squares and prints the rank correlation
the fitted weights reach.  HANDFIX is never committed.
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

if __package__ in (None, ""):  # run as a script: benchmarks/ is not a package then
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hipport.built import BUILD, units_build  # noqa: E402
from hipport.report.built import Builder, BuildError, BuildOutcome  # noqa: E402
from hipport.report.model import Report  # noqa: E402
from hipport.report.run import ReportRequest, make_report  # noqa: E402

ORACLE = "rocm-6.4"
# What an hour of hand porting is worth in this table: diagnosing a build
# error's cause and editing a line (see docs/effort.md, "Measured days").
HOURS_PER_CAUSE = 1.0
HOURS_PER_LINE = 0.25
HOURS_PER_DAY = 8.0


@dataclass(frozen=True)
class Program:
    name: str
    repo: str
    folders: tuple[str, ...]  # the program's folder, then its repository's shared helpers


PROGRAMS: tuple[Program, ...] = (
    Program("hwfx", "hardware-effects-gpu", (".",)),
    Program("cufft-1d-mgpu", "CUDALibrarySamples", ("cuFFT/1d_mgpu_c2c", "cuFFT/utils")),
    Program("cufft-3d-mgpu", "CUDALibrarySamples", ("cuFFT/3d_mgpu_c2c", "cuFFT/utils")),
    Program("cusparse-cg", "CUDALibrarySamples", ("cuSPARSE/cg",)),
    Program("cusparse-spmv", "CUDALibrarySamples", ("cuSPARSE/spmv_csr",)),
    Program("cublas-amin", "CUDALibrarySamples",
            ("cuBLAS/Level-1/amin", "cuBLAS/utils", "cuBLAS/cmake")),
    Program("cublas-gemmex", "CUDALibrarySamples",
            ("cuBLAS/Extensions/GemmEx", "cuBLAS/utils", "cuBLAS/cmake")),
    Program("curand-mt19937", "CUDALibrarySamples",
            ("cuRAND/Host/mt19937", "cuRAND/utils", "cuRAND/cmake")),
    Program("cusolver-xgeqrf", "CUDALibrarySamples",
            ("cuSOLVER/Xgeqrf", "cuSOLVER/utils", "cuSOLVER/cmake")),
    Program("sgemm", "SGEMM_CUDA", (".",)),
    Program("lcp-warp", "Learn-CUDA-Programming",
            ("Chapter03/03_cuda_thread_programming/01_warp_and_thread_block",)),
    Program("lcp-limiter", "Learn-CUDA-Programming",
            ("Chapter03/03_cuda_thread_programming/04_performance_limiter",)),
    Program("lcp-stream", "Learn-CUDA-Programming",
            ("Chapter04/04_kernel_execution/01_cuda_stream",)),
    Program("lcp-scan", "Learn-CUDA-Programming",
            ("Chapter07/07_parallel_programming_pattern/03_scan",)),
    Program("lcp-nbody", "Learn-CUDA-Programming",
            ("Chapter07/07_parallel_programming_pattern/05_n-body",)),
    Program("lcp-histogram", "Learn-CUDA-Programming",
            ("Chapter07/07_parallel_programming_pattern/08_histogram",)),
    Program("lcp-dynpar", "Learn-CUDA-Programming",
            ("Chapter04/04_kernel_execution/06_dynamic_parallelism",)),
    Program("gups", "code-samples", ("posts/gups",)),
    Program("nvtx", "code-samples", ("posts/nvtx",)),
    Program("shfl-reduction", "code-samples", ("posts/parallel_reduction_with_shfl",)),
    Program("unified-memory", "code-samples", ("posts/unified-memory",)),
    Program("llmc-dev", "llm.c", ("dev/cuda",)),
)


# ------------------------------------------ the build, from its logs --
# What `hipport report --verify` bills once `hipport verify --build` (issue
# 26) exists: the errors of the tree's own build.  Until then the logs of
# endtoend.py's build of the converted program stand in for it: the first
# build, before any hand fix (HANDFIX/work/converted/build/rocm-6.4/TARGET,
# kept only for builds that failed).
_COMPILE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:\d+:)?\s*(?:fatal )?error: "
                      r"(?P<msg>.*)$")
_CMAKE_AT = re.compile(r"^CMake Error at (?P<file>[^:]+):(?P<line>\d+) \(\w+\):\s*$")
_CMAKE = re.compile(r"^CMake Error: (?P<msg>.*)$")
_DRIVER = re.compile(r"^(?:clang\+\+|clang|hipcc|g\+\+|gcc|c\+\+|cc): error: (?P<msg>.*)$")
_LINKER = re.compile(r"^(?:ld|ld\.lld|lld): error: (?P<msg>.*)$")
_MAKE = re.compile(r"^(?P<file>\S*[Mm]akefile):(?P<line>\d+): \*\*\* (?P<msg>.*?)\.?\s*Stop\.$")


def log_errors(log: str, roots: Sequence[str]) -> list[BuildError]:
    """The errors of a build log, their files relative to the program."""
    def relative(name: str) -> str | None:
        for root in roots:
            if root in name:
                return name.split(root, 1)[1].lstrip("/")
        return None

    lines = log.splitlines()
    found: list[BuildError] = []
    for i, raw in enumerate(lines):
        line = raw.strip()
        if m := _CMAKE_AT.match(line):
            message = " ".join(x.strip() for x in lines[i + 1:i + 6] if x.strip())[:200]
            found.append(BuildError(message, relative(m["file"]), int(m["line"]), "configure"))
        elif m := _CMAKE.match(line):
            found.append(BuildError(m["msg"], None, 0, "configure"))
        elif m := _MAKE.match(line):
            found.append(BuildError(m["msg"], relative(m["file"]) or m["file"], int(m["line"]),
                                    "configure"))
        elif m := _DRIVER.match(line):
            found.append(BuildError(m["msg"], None, 0, "compile"))
        elif m := _LINKER.match(line):
            found.append(BuildError(m["msg"], None, 0, "link"))
        elif m := _COMPILE.match(line):
            where = relative(m["file"]) if "/" in m["file"] else m["file"]
            found.append(BuildError(m["msg"], where, int(m["line"]), "compile"))
    return list(dict.fromkeys(found))


def logged_build(handfix: Path, program: str) -> Builder:
    """A builder that answers from endtoend.py's first build of ``program``."""
    def builder(converted: Path, jobs: int, timeout: float) -> BuildOutcome:
        folders = sorted((handfix / "work" / "converted" / "build" / ORACLE).glob(
            f"{program}_*"))
        logs = {name: (folder / name).read_text(errors="replace") for folder in folders
                for name in ("configure.log", "build.log") if (folder / name).is_file()}
        everything = frozenset(p.relative_to(converted).as_posix()
                               for p in converted.rglob("*") if p.is_file())
        if not logs:
            return BuildOutcome("the program's own build (endtoend.py, ROCm 6.4): it builds",
                                passed=everything, build_files=True)
        roots = [f"/{ORACLE}/{program}/", "/tree/"]
        errors = [e for text in logs.values() for e in log_errors(text, roots)]
        configured = "configure.log" not in logs or "build.log" in logs
        failed = frozenset(e.path for e in errors if e.path)
        return BuildOutcome(f"the program's own build (endtoend.py, ROCm 6.4): "
                            f"{'configured, ' if configured else ''}{len(errors)} errors",
                            tuple(errors), failed, frozenset(), build_files=configured)
    return builder


# ------------------------------------------------------------- measure --
def changed_lines(before: Path, after: Path) -> int:
    """Lines changed by hand between two trees: per file, a replaced block
    counts its longer side, an inserted or deleted block its lines; a file
    added or removed counts all its lines."""
    total = 0
    names = {p.relative_to(before) for p in before.rglob("*") if p.is_file()}
    names |= {p.relative_to(after) for p in after.rglob("*") if p.is_file()}
    for name in sorted(names):
        old, new = _lines(before / name), _lines(after / name)
        if old == new:
            continue
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new,
                                                           autojunk=False).get_opcodes():
            if tag != "equal":
                total += max(i2 - i1, j2 - j1)
    return total


def _lines(path: Path) -> list[str]:
    try:
        return path.read_bytes().decode("latin-1").splitlines()
    except OSError:
        return []


def measured_days(lines: int, causes: int) -> float:
    return (causes * HOURS_PER_CAUSE + lines * HOURS_PER_LINE) / HOURS_PER_DAY


def features(report: Report) -> dict[str, float]:
    """The estimate's terms for one program: what ``fit`` fits weights to."""
    out = {"changed_files": 0.0, "configure": 0.0, "compile": 0.0, "results": 0.0,
           "review": 0.0, "build_errors": 0.0}
    for line in report.effort.lines:
        if line.item.startswith("review and test"):
            out["changed_files"] += line.quantity
        elif line.item.startswith("build error"):
            out["build_errors"] += line.days
        elif line.stage in out:
            out[line.stage] += line.days
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation, ties given their average rank."""
    rx, ry = _ranks(xs), _ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx and sy else 0.0


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


BASES = ("static", "units", "verify", "build")


def measure(handfix: Path, basis: str) -> list[dict[str, Any]]:
    """``basis``: static (no build), units (hipcc on each unit, as ``report
    --verify`` did before ``verify --build``), verify (``hipport report
    --verify``: the converted program built with its own build files, now),
    build (the program's own build, from endtoend.py's logs)."""
    notes = json.loads((handfix / "notes.json").read_text())
    rows = []
    for program in PROGRAMS:
        note = notes.get(program.name, {})
        if "excluded" in note:
            print(f"[calibration] {program.name}: left out: {note['excluded']}", file=sys.stderr)
            continue
        converted = handfix / "work" / "converted" / ORACLE / program.name
        fixed = handfix / "work" / "fixed" / ORACLE / program.name
        if not fixed.is_dir():
            print(f"[calibration] {program.name}: no hand-fixed tree yet", file=sys.stderr)
            continue
        lines = changed_lines(converted, fixed)
        causes = len(note.get("causes", []))
        builder: Builder | None = {"static": None, "units": units_build, "verify": BUILD,
                                   "build": logged_build(handfix, program.name)}[basis]
        request = ReportRequest((handfix / "corpus" / program.name,), jobs=2, quiet=True,
                                verify=builder is not None)
        report = make_report(request, builder=builder)
        e = report.effort
        rows.append({
            "program": program.name, "repo": program.repo, "hand_lines": lines,
            "causes": causes, "errors_first": note.get("errors_first", 0),
            "errors_all": note.get("errors_all", 0),
            "measured_days": round(measured_days(lines, causes), 3),
            "basis": e.basis, "low": round(e.low, 3), "likely": round(e.total, 3),
            "high": round(e.high, 3), "blocker_days": round(e.blocker_days, 3),
            "files": report.totals.files,
            "not_built_files": report.coverage.not_built_files,
            "not_built_findings": report.coverage.not_built_findings,
            "features": features(report),
        })
        print(f"[calibration] {program.name}: {lines} hand lines, estimate {e.low:.2f}-"
              f"{e.total:.2f}-{e.high:.2f} ({e.basis})", file=sys.stderr)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| program | repository | hand lines | causes | errors (first build / all) | "
           "measured days | estimate low / likely / high | not built (files) |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: (r["hand_lines"], r["likely"])):
        out.append(f"| {r['program']} | {r['repo']} | {r['hand_lines']} | {r['causes']} | "
                   f"{r['errors_first']} / {r['errors_all']} | {r['measured_days']:.2f} | "
                   f"{r['low']:.2f} / {r['likely']:.2f} / {r['high']:.2f} | "
                   f"{r['not_built_files']} |")
    likely = [r["likely"] for r in rows]
    out += ["", f"Spearman's rank correlation, likely estimate against hand lines: "
                f"{spearman(likely, [r['hand_lines'] for r in rows]):.2f}; against measured "
                f"days: {spearman(likely, [r['measured_days'] for r in rows]):.2f}; against "
                f"errors met: {spearman(likely, [r['errors_all'] for r in rows]):.2f} "
                f"({len(rows)} programs)."]
    return "\n".join(out)


# ----------------------------------------------------------------- fit --
def fit(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Non-negative least squares of measured days on the estimate's terms
    (each a sum of days at the current weights): the factor each term's
    weights should be multiplied by."""
    names = sorted(rows[0]["features"])
    xs = [[r["features"][n] for n in names] for r in rows]
    ys = [r["measured_days"] for r in rows]
    factors = _nnls(xs, ys)
    return dict(zip(names, factors))


def _nnls(xs: list[list[float]], ys: list[float], rounds: int = 20000) -> list[float]:
    """Projected gradient descent: small problems, no numpy needed."""
    k = len(xs[0])
    w = [1.0] * k
    scale = max(sum(x[j] ** 2 for x in xs) for j in range(k)) or 1.0
    step = 1.0 / (scale * k)
    for _ in range(rounds):
        residual = [sum(wj * xj for wj, xj in zip(w, x)) - y for x, y in zip(xs, ys)]
        grad = [sum(r * x[j] for r, x in zip(residual, xs)) for j in range(k)]
        w = [max(0.0, wj - step * g) for wj, g in zip(w, grad)]
    return w


# ------------------------------------------------------------- prepare --
def prepare(corpus: Path, handfix: Path) -> None:
    for program in PROGRAMS:
        for folder in program.folders:
            source = corpus / program.repo / folder
            target = handfix / "corpus" / program.name / folder
            if target.exists():
                continue
            shutil.copytree(source, target, symlinks=True)
        print(f"[calibration] {program.name}: {handfix / 'corpus' / program.name}",
              file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="copy the programs out of the corpus")
    p.add_argument("corpus", type=Path)
    p.add_argument("handfix", type=Path)
    m = sub.add_parser("measure", help="hand lines against the estimate")
    m.add_argument("handfix", type=Path)
    m.add_argument("--basis", choices=BASES, default="static",
                   help="static; units (report --verify today: needs hipcc); build (the "
                        "programs' own builds, from endtoend.py's logs)")
    m.add_argument("--out", type=Path, help="results JSON (default HANDFIX/results/"
                                            "calibration-BASIS.json)")
    f = sub.add_parser("fit", help="fit the terms' weights to the measured days")
    f.add_argument("results", type=Path)
    args = parser.parse_args(argv)
    if args.command == "prepare":
        prepare(args.corpus, args.handfix)
        return 0
    if args.command == "measure":
        rows = measure(args.handfix, args.basis)
        out = args.out or args.handfix / "results" / f"calibration-{args.basis}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rows, indent=1) + "\n")
        print(table(rows))
        return 0
    rows = json.loads(args.results.read_text())
    factors = fit(rows)
    for name, factor in factors.items():
        print(f"{name}: x {factor:.3f}")
    fitted = [sum(factors[n] * r["features"][n] for n in factors) for r in rows]
    print(f"Spearman, fitted against hand lines: "
          f"{spearman(fitted, [r['hand_lines'] for r in rows]):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["PROGRAMS", "Program", "asdict", "changed_lines", "spearman"]
