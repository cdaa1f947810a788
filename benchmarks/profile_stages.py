"""Where a conversion's CPU time goes, stage by stage (issue 35).

    python benchmarks/profile_stages.py TREE [--top 15] [--stats FILE]

Runs ``hipport convert TREE -o OUT --no-cache --force -q -j 1`` in this
process under cProfile (one process, so the profile sees every stage) and
prints CPU seconds per stage and the top functions by cumulative time.  Then,
as fresh processes, the CPU seconds (user + system, children included) of
``import hipport.cli``, of the same conversion with 1 process and with the
default worker count (the difference is the pool's start-up and pickling),
and of hipify-perl on the same tree when it is installed.  CPU seconds, not
wall time: the machine is shared.  cProfile inflates Python-heavy stages
(about 1.3x here); the unprofiled total is printed beside it.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# A stage is the cumulative time of functions named by (file suffix, name);
# built-in methods have the file suffix "~".
Key = tuple[str, int, str]
Figures = tuple[int, int, float, float]  # pstats: calls, primitive calls, own, cumulative
Stats = dict[Key, tuple[int, int, float, float, dict[Key, Figures]]]


def children_cpu(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of ``argv`` and every process it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def check_cpu(work: Path, count: int) -> float:
    """CPU seconds of ``hipport check`` on ``count`` files (the pre-commit
    hook's case), with the compiled catalogue built and no cached results."""
    from benchmarks.check_latency import make_tree

    tree, cache = work / "check", work / "cache"
    tree.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    names = make_tree(tree, count)
    env = dict(os.environ, HIPPORT_CACHE_DIR=str(cache))
    argv = [sys.executable, "-m", "hipport", "check", "-q", *names]
    subprocess.run(argv, cwd=tree, env=env, capture_output=True, check=False)
    for found in cache.glob("results-*"):  # the result cache (a database and its journal)
        shutil.rmtree(found) if found.is_dir() else found.unlink()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=tree, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def direct_figures(tree: Path) -> list[tuple[str, float]]:
    """Stages timed directly (process_time around a loop, no profiler), to
    check the profile: cProfile charges every call it sees, so it inflates
    pure-Python code that calls many small built-ins and hardly touches C."""
    from tree_sitter import Parser, Query

    from hipport.parse.conditions import blank
    from hipport.parse.syntax import LANGUAGE
    from hipport.rules.hazards import nodes

    paths = [p for p in sorted(tree.rglob("*"))
             if p.is_file() and p.suffix in {".cu", ".cuh", ".h", ".hpp", ".cpp"}]
    start = time.process_time()
    data = [p.read_bytes() for p in paths]
    read = time.process_time() - start
    parser = Parser(LANGUAGE)
    start = time.process_time()
    for text in data:
        parser.parse(text)
    parse = time.process_time() - start
    start = time.process_time()
    for text in data:
        blank(text)
    blanked = time.process_time() - start
    sources = tuple(nodes._KNOWN_QUERIES)  # filled by the profiled run
    start = time.process_time()
    Query(LANGUAGE, "\n".join(sources))
    query = time.process_time() - start
    return [(f"read {len(data)} sources", read), ("tree-sitter parse, one pass", parse),
            ("conditions.blank, once per file", blanked),
            (f"compile the hazards' combined query ({len(sources)} parts, once per process)",
             query)]


def find(stats: Stats, suffix: str, name: str) -> list[Key]:
    return [k for k in stats if k[0].endswith(suffix) and k[2] == name]


def cumulative(stats: Stats, suffix: str, name: str) -> float:
    return float(sum(stats[k][3] for k in find(stats, suffix, name)))


def own(stats: Stats, suffix: str, name: str) -> float:
    return float(sum(stats[k][2] for k in find(stats, suffix, name)))


def called_from(stats: Stats, suffix: str, name: str, caller_suffix: str,
                caller_name: str) -> float:
    """Cumulative time of ``name`` in its calls from ``caller_name``."""
    total = 0.0
    for key in find(stats, suffix, name):
        for caller, figures in stats[key][4].items():
            if caller[0].endswith(caller_suffix) and caller[2] == caller_name:
                total += figures[3]
    return total


def rule_times(stats: Stats) -> list[tuple[str, float]]:
    from hipport.rules.registry import file_rules

    out = []
    for name, rule in file_rules().items():
        code = getattr(rule.check, "__code__", None)
        if code is None:
            continue
        key = (code.co_filename, code.co_firstlineno, code.co_name)
        out.append((name, stats[key][3] if key in stats else 0.0))
    return sorted(out, key=lambda item: -item[1])


def profile_convert(tree: Path, out: Path, dump: Path | None) -> tuple[Stats, float]:
    from hipport.cli import main as cli_main

    # The default (wall) timer: a CPU-time timer costs a system call per
    # event and inflated the Python-heavy stages 3.5x.  Shares are taken from
    # this profile, seconds from the unprofiled run's CPU time.
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    cli_main(["convert", str(tree), "-o", str(out), "--no-cache", "--force", "-q", "-j", "1"])
    profiler.disable()
    total = time.perf_counter() - start
    if dump is not None:
        profiler.dump_stats(dump)
    return pstats.Stats(profiler).stats, total  # type: ignore[attr-defined]


def stage_table(stats: Stats, total: float) -> list[tuple[str, float]]:
    parse = own(stats, "~", "<method 'parse' of 'tree_sitter.Parser' objects>")
    captures = called_from(stats, "~", "<method 'captures' of 'tree_sitter.QueryCursor' objects>",
                           "syntax.py", "_captures")
    analyze = cumulative(stats, "syntax.py", "analyze")
    findings = cumulative(stats, "convert.py", "collect_findings")
    analysed = called_from(stats, "syntax.py", "analyze", "convert.py", "collect_findings")
    second = cumulative(stats, "convert.py", "__call__")  # SourceVerifier: the check
    # Build files end in the same apply_findings as sources: kept apart.
    build = cumulative(stats, "buildfiles/__init__.py", "convert_build_file")
    applying = cumulative(stats, "convert.py", "apply_findings") - second - called_from(
        stats, "convert.py", "apply_findings", "buildfiles/__init__.py", "convert_build_file")
    rows = [
        ("plan (discovery, targets, refusals)", cumulative(stats, "pipeline.py", "plan")),
        ("reading sources", cumulative(stats, "replace.py", "read_source")),
        ("tree-sitter parse (C), both passes", parse),
        ("tree-sitter query captures (C), both passes", captures),
        ("Python walk over nodes/captures, both passes", analyze - parse - captures),
        ("rules, both passes (analysis excluded)", findings - analysed),
        ("applying edits to sources (apply_findings without the check)", applying),
        ("build files (CMake, Make): read, rules, edits, second pass", build),
        ("writing outputs (deliver)", cumulative(stats, "delivery.py", "deliver")),
    ]
    rest = total - sum(seconds for _, seconds in rows)
    return [*rows,
            ("everything else (start-up of the command, catalogue, results)", rest),
            ("total (convert command, imports excluded)", total),
            ("  of which the second-pass check (parse+walk+rules)", second)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--stats", type=Path, help="also save the cProfile data here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hipport-profile-"))
    env = dict(os.environ)
    try:
        py = sys.executable
        shutil.rmtree(work / "out", ignore_errors=True)
        one = [py, "-m", "hipport", "convert", str(args.tree), "-o", str(work / "out"),
               "--no-cache", "--force", "-q", "-j", "1"]
        imports = children_cpu([py, "-c", "import hipport.cli"], env)
        unprofiled = children_cpu(one, env) - imports
        stats, total = profile_convert(args.tree, work / "out", args.stats)
        scale = unprofiled / total

        def row(label: str, seconds: float) -> str:
            return f"{label:<60} {seconds * scale:7.2f} {100 * seconds / total:5.1f}%"

        print(f"\n{'stage (CPU s of an unprofiled run, by profile share)':<60} {'CPU s':>7} share")
        print(f"{'interpreter start-up and imports':<60} {imports:7.2f}")
        for label, seconds in stage_table(stats, total):
            print(row(label, seconds))
        print(f"\n{'rule (both passes, analysis excluded)':<60} {'CPU s':>7} share")
        for name, seconds in rule_times(stats)[:args.top]:
            print(row(name, seconds))
        print(f"\n{'timed directly, no profiler':<60} {'CPU s':>7}")
        for label, seconds in direct_figures(args.tree):
            print(f"{label:<60} {seconds:7.2f}")
        print(f"\ntop {args.top} functions by cumulative CPU time, below the per-file trunk")
        trunk = cumulative(stats, "convert.py", "collect_findings")
        ranked = sorted(((v[3], v[2], v[1], k) for k, v in stats.items()
                         if ("hipport" in k[0] or k[0] == "~") and v[3] < trunk),
                        key=lambda r: -r[0])
        for cum, tot, calls, (file, line, name) in ranked[:args.top]:
            where = name if file == "~" else f"{Path(file).parent.name}/{Path(file).name}" \
                f":{line}({name})"
            print(f"  {cum * scale:6.2f} cum {tot * scale:6.2f} own {calls:8d} calls  {where}")
        print("\nfresh processes, CPU s (user + system, children included):")
        print(f"  python -c pass                      {children_cpu([py, '-c', 'pass'], env):6.2f}")
        print(f"  python -c 'import hipport.cli'      {imports:6.2f}")
        for jobs in ("1", "0"):
            shutil.rmtree(work / "out", ignore_errors=True)
            argv = [py, "-m", "hipport", "convert", str(args.tree), "-o", str(work / "out"),
                    "--no-cache", "--force", "-q", "-j", jobs]
            label = f"convert -j {jobs} ({'default workers' if jobs == '0' else 'one process'})"
            print(f"  {label:<36}{children_cpu(argv, env):6.2f}")
        print(f"  check, 20 files, cold results       {check_cpu(work, 20):6.2f}")
        hipify = shutil.which("hipify-perl")
        if hipify is not None:
            files = [str(p) for p in sorted(args.tree.rglob("*"))
                     if p.suffix in {".cu", ".cuh", ".h", ".hpp", ".cpp"}]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            for i in range(0, len(files), 200):
                subprocess.run([hipify, *files[i:i + 200]], capture_output=True, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            print(f"  hipify-perl, same files            "
                  f"{after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime:6.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
