"""How long reading a huge build output takes: `verify --build`'s reader
(`hipport.verify.buildlog.read_log`, then the findings of `verify/build.py`)
and `--units`' first error (`hipport.verify.diagnostics.first_error`).

    python benchmarks/buildlog.py                      # 10k, 100k, 400k error lines
    python benchmarks/buildlog.py --lines 10000 20000 --styles gcc

Four generated logs, each with the given number of error lines and what
surrounds them in a real one:

* clang: hipcc's errors with their include chains, source lines, carets,
  notes and ``N errors generated when compiling for gfx90a.`` every 10 errors;
* gcc: GCC's ``In file included from a.h:2,`` / ``from main.cpp:1:`` chains,
  no count line at all (the reader used to look for one to the log's end);
* cmake: ``CMake Error at CMakeLists.txt:N (add_executable):`` blocks with
  their call stacks;
* make: recursive make entering and leaving folders, a recipe's shell
  error, lld's undefined symbols and ``make[2]: *** [...] Error 1``.

Prints, per style and size, the log's size and the CPU seconds of each
reader (``findings`` includes its ``read_log``).  One run each: the
quadratic reader took minutes where the linear one takes seconds, so the
best of several runs adds nothing."""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hipport.buildfiles import build_systems  # noqa: E402
from hipport.verify.build import Project, _findings, _Places  # noqa: E402
from hipport.verify.buildlog import read_log  # noqa: E402
from hipport.verify.diagnostics import first_error  # noqa: E402
from hipport.verify.session import kept_output  # noqa: E402


def clang(errors: int) -> str:
    out: list[str] = []
    for i in range(errors):
        unit = f"src/unit{i // 10}.hip"
        out += [f"In file included from {unit}:2:",
                f"In file included from src/inc/mid{i % 7}.h:4:",
                f"src/inc/head{i % 50}.h:{10 + i % 90}:5: error: use of undeclared "
                f"identifier 'name{i}'",
                f"   12 |     name{i}(x);",
                "      |     ^",
                f"{unit}:7:3: note: in instantiation of function template specialization "
                f"'run<int>' requested here"]
        if i % 10 == 9:
            out.append("10 errors generated when compiling for gfx90a.")
    return "\n".join(out) + "\n"


def gcc(errors: int) -> str:
    out: list[str] = []
    for i in range(errors):
        out += [f"In file included from src/inc/head{i % 50}.h:2,",
                f"                 from src/unit{i // 10}.cpp:1:",
                f"src/inc/inner{i % 30}.h:{5 + i % 60}:3: error: 'name{i}' was not declared "
                "in this scope",
                f"    5 |   name{i} = 1;",
                "      |   ^~~~~~~"]
    return "\n".join(out) + "\n"


def cmake(errors: int) -> str:
    out: list[str] = ["-- The HIP compiler identification is Clang 21.1.8"]
    for i in range(errors):
        out += [f"CMake Error at cmake/targets{i % 20}.cmake:{i + 1} (add_executable):",
                "  Cannot find source file:",
                "",
                f"    kernels/k{i}.cu",
                "",
                "Call Stack (most recent call first):",
                f"  CMakeLists.txt:{3 + i % 40} (include)",
                "",
                ""]
    out.append("-- Configuring incomplete, errors occurred!")
    return "\n".join(out) + "\n"


def make(errors: int) -> str:
    out: list[str] = []
    for i in range(errors):
        folder = f"/build/sub{i}"
        out.append(f"make[1]: Entering directory '{folder}'")
        if i % 2:
            out += ["/bin/sh: 1: nvcc: not found",
                    f"make[1]: *** [Makefile:9: k{i}.o] Error 127"]
        else:
            out += [f"ld.lld: error: undefined symbol: f{i}(int*)",
                    f">>> referenced by k{i}.cpp:12",
                    f">>>               k{i}.o:(main)",
                    "clang++: error: linker command failed with exit code 1 (use -v to "
                    "see invocation)",
                    f"make[1]: *** [Makefile:14: app{i}] Error 1"]
        out.append(f"make[1]: Leaving directory '{folder}'")
    out.append("make: *** [Makefile:3: all] Error 2")
    return "\n".join(out) + "\n"


STYLES: dict[str, Callable[[int], str]] = {"clang": clang, "gcc": gcc, "cmake": cmake,
                                           "make": make}


def findings_of(output: str, root: Path) -> int:
    """The findings `verify --build` makes of ``output``: a Make project in
    ``root`` (its files are never found there: each finding falls back to
    the build file, as for a tree that is not the one that printed)."""
    project = Project(root, build_systems()["make"], root)
    found = _findings(project, "build", output, 2, _Places(project, root, {}), 1800.0)
    return len(found)


def timed(work: Callable[[], object]) -> tuple[float, object]:
    """The CPU seconds of ``work`` (one thread: on a shared machine, its
    wall time says more of the neighbours than of the reader)."""
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, nargs="+", default=[10_000, 100_000, 400_000],
                        help="error lines per log")
    parser.add_argument("--styles", nargs="+", choices=sorted(STYLES), default=list(STYLES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hipport-log-bench-") as tmp:
        root = Path(tmp)
        (root / "Makefile").write_text("all:\n\t$(MAKE) -C sub\n")
        print("style  errors   lines      MB  read_log  findings  first_error  kept_output")
        for style in args.styles:
            for count in args.lines:
                output = STYLES[style](count)
                read, log = timed(lambda: read_log(output))
                find, _ = timed(lambda: findings_of(output, root))
                first, _ = timed(lambda: first_error(output))
                kept, _ = timed(lambda: kept_output(output))
                assert hasattr(log, "problems")
                print(f"{style:6} {count:>6} {output.count(chr(10)):>7} "
                      f"{len(output) / 1e6:7.1f} {read:9.2f} {find:9.2f} {first:12.2f} "
                      f"{kept:12.3f}", flush=True)


if __name__ == "__main__":
    main()
