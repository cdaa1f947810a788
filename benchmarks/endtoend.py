"""Real-world corpus, end to end: does each converted program build with its own build files?

    PYTHONPATH=CHECKOUT .venv/bin/python benchmarks/endtoend.py CORPUS \\
        --out RESULTS/NAME.json [-j 2] [--sample REPO=N] [--make-var REPO:VAR=VALUE]
        [--rocm 6.4,7.2] [--report] [--baseline RESULTS/OLD.json]

CORPUS is realworld.py's (one folder per public repository, never committed;
docs/corpus.md).  A *target* is one build project of a repository:

* each ``CMakeLists.txt`` that declares ``project()``, names CUDA somewhere in
  its folder's CMake files, and is not reached by ``add_subdirectory`` from a
  ``CMakeLists.txt`` above it (a top-level project, not a part of one);
* each ``Makefile``/``makefile``/``GNUmakefile`` that names ``nvcc`` (an nvcc
  rule) in a folder without such a CMake project (CMake wins where a folder
  has both).

For every target the script

1. builds the ORIGINAL with CUDA 13 (``/usr/local/cuda/bin/nvcc``): CMake 4
   (the ``cmake`` of pip beside this Python, else ``--cmake``) configures
   ``-S FOLDER -B BUILD -DCMAKE_CUDA_ARCHITECTURES=80``, then ``cmake --build
   BUILD -- -k``; a Makefile runs as ``make -k -C FOLDER`` in a copy of the
   repository.  ``CPATH`` holds the CUDA library headers (``.toolchain/
   cuda-extra/include``, ``CORPUS/../cuda-include``).  There is no GPU and no
   CUDA library but the runtime, so an original *counts* when it configures
   and every compile step succeeds (its link may fail for a missing
   ``-lcublas``; that is recorded as ``linked``);
2. converts each repository once per ROCm release of ``--rocm`` (6.4, 7.2 or
   both; default 6.4): ``python -m hipport convert REPO -o WORK/rocm-X.Y/REPO
   --force --no-cache --rocm-version X.Y``;
3. builds the CONVERTED target with that release's own tools, the wrappers
   ``/var/cache/hipport/bin/{cmake,make}`` (6.4) or ``/var/cache/hipport/
   rocm-7.2/bin/{cmake,make}`` (7.2; docs/toolchains.md):
   ``-DCMAKE_HIP_ARCHITECTURES=gfx90a``, and lld for every link, the same way
   for every target (the 6.4 chroot has hipBLAS, hipSPARSE and hipSOLVER without
   the rocBLAS/rocSPARSE/rocSOLVER they need, which GNU ld refuses):
   ``-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -B/usr/lib/llvm-N/bin`` (the chroot's
   LLVM: 21 in 6.4's, 22 in 7.2's; and the shared/module ones) for CMake,
   ``HIPCC_LINK_FLAGS_APPEND=-fuse-ld=lld`` for make;
4. records per target and side: configured, compiled (no error but link
   errors), built (exit status 0), the first error (file:line, message, its
   class as realworld.py classes compiler errors, plus CMake's and the
   linker's classes) and the time;
5. with ``--report``, runs ``hipport report REPO --format sarif --rocm-version
   X.Y`` on each original with a failing target and marks each failing target
   whose first error's line, folder or failing file has no blocker finding
   (a code whose work is breaks-build or changes-results): a *surprise failure*.

Both sides pass ``-DCMAKE_POLICY_VERSION_MINIMUM=3.5`` (CMake 4 refuses
``cmake_minimum_required`` below 3.5 otherwise) and ``--make-var`` values
(say ``Learn-CUDA-Programming:SMS=80``: CUDA 13 dropped the older GPUs those
Makefiles list) to make.  Build folders are outside the trees
(WORK/build/SIDE/TARGET); a Makefile target builds in a fresh copy of its
repository.  Answers are cached in ``e2e-cache.json`` beside OUT by the digest
of the target's files (its folder, every local header its sources may
include, the CMake modules of the repository and the build files of the
folders above) with the side, tool versions and options; a later run, of
another commit say, rebuilds only the targets whose files changed.  The key
holds the side (``cuda``, ``rocm-6.4``, ``rocm-7.2``), so each release's builds
are cached apart.

Writes OUT (JSON, one record per target) and OUT with ``.md`` (per repository:
targets, originals that configure/compile/link, converted that configure/
compile/build; the classes of the first errors with counts and examples; per
target rows; with ``--baseline`` what was fixed and what broke).
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: benchmarks/ is not a package then
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.realworld import (  # noqa: E402
    CHROOT_HIPCC,
    ERROR_LINE,
    NVCC,
    REPO,
    SOURCE_SUFFIXES,
    Oracle,
    checkout_env,
    classify,
    convert,
    files_digest,
    hip_version,
    hipport_help,
    include_dirs,
    progress,
    run_pool,
    save_merged,
    write_results,
)

TOOLCHAIN_CACHE = CHROOT_HIPCC.parent.parent  # $HIPPORT_TOOLCHAIN_CACHE
CUDA_ROOT = NVCC.parent.parent
ROCM_RELEASES = ("6.4", "7.2")
ORACLE = "rocm-6.4"           # the default converted side (the only one of older results)
LLD_DIR = "/usr/lib/llvm-21/bin"  # where a chroot's ld.lld is when none is found
CUDA_ARCH = "80"
HIP_ARCH = "gfx90a"
TIMEOUT = 1200.0
TOOLS = {"ld.lld", "ld", "collect2", "clang", "clang++", "nvcc", "hipcc", "gcc", "g++", "cc",
         "c++", "make", "gmake"}
MAKEFILE_NAMES = {"Makefile", "makefile", "GNUmakefile"}
PROJECT = re.compile(r"^\s*project\s*\(", re.IGNORECASE | re.MULTILINE)
SUBDIR = re.compile(r"^\s*add_subdirectory\s*\(\s*\"?([^\s\")]+)", re.IGNORECASE | re.MULTILINE)
NVCC_RULE = re.compile(r"nvcc", re.IGNORECASE)
BUILD_NAME = re.compile(r"^(?:CMakeLists\.txt|.*\.cmake|(?:GNU)?[Mm]akefile.*|.*\.mk)$")

# Build-system and linker errors, tried before realworld.classify's compiler classes.
BUILD_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern)) for name, pattern in (
        ("link: undefined symbol", r"undefined (?:reference to|symbol:) [`']?([^'\s]+)"),
        ("link: missing library", r"cannot find -l(\S+)|unable to find library -l(\S+)"
                                  r"|(lib[\w.+-]+\.so[\w.]*), needed by"),
        ("link: failed", r"linker command failed|ld returned \d+ exit status|^ld(?:\.lld)?: "),
        ("unsupported option", r"unsupported option '([^']+)'|unknown argument:? '([^']+)'"
                               r"|unrecognized command-line option '([^']+)'"),
        ("unsupported GPU architecture", r"[Uu]nsupported gpu architecture '([^']+)'"
                                         r"|invalid offload arch|unsupported CUDA gpu "
                                         r"architecture"),
        ("wrong argument count", r"too (?:many|few) arguments to function [‘'`]([^’']+)[’']"),
        ("no member", r"class \"([^\"]+)\" has no member \"([^\"]+)\""),
        ("make: no rule", r"No rule to make target '([^']+)'"),
        ("missing tool", r"(\S+): (?:command )?not found|No such file or directory.*execvp"
                         r"|^g?make(?:\[\d+\])?: (\S+): No such file or directory"),
    ))
CMAKE_CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.DOTALL)) for name, pattern in (
        ("cmake: unknown target", r"links to:\s+(\S+)\s+but the target was not found"
                                  r"|target \"?([^\s\"]+)\"? (?:was )?not found"),
        ("cmake: no link language", r"[Cc]annot determine link language|can not determine "
                                    r"linker language"),
        ("cmake: package not found", r"provided by \"([^\"]+)\"|Could NOT find (\w+)"
                                     r"|Could not find a package configuration file .*"
                                     r"\"([^\"]+)\""),
        ("cmake: FindThreads without C/CXX", r"FindThreads only works"),
        ("cmake: unknown command", r"Unknown CMake command \"([^\"]+)\""),
        ("cmake: compiler check failed", r"is not able to compile a simple test program"
                                         r"|No CMAKE_(\w+)_COMPILER could be found"
                                         r"|identification is unknown"),
        ("cmake: GPU architecture", r"CUDA_ARCHITECTURES is set to \"native\"|"
                                    r"(\w+_ARCHITECTURES)"),
        ("cmake: version", r"Compatibility with CMake < [\d.]+ has been removed"
                           r"|CMake ([\d.]+) or higher is required"),
        ("cmake: file not found", r"[Cc]annot find source file:\s+(\S+)|include could not "
                                  r"find (?:requested|load) file:\s+(\S+)|No SOURCES given"),
    ))
CMAKE_ERROR = re.compile(r"^CMake Error(?: at (?P<file>[^:]+):(?P<line>\d+) \((?P<cmd>\w+)\))?"
                         r":\s*(?P<msg>.*)$")


# ------------------------------------------------------------ data model --
@dataclass
class Build:
    configured: bool
    compiled: bool                # configured, and no error but link errors
    built: bool                   # the build's exit status was 0
    seconds: float
    phase: str = ""               # where the first error is: configure, build, convert
    first_error: str = ""         # the line as printed
    error_file: str = ""          # repository-relative when it is in the tree
    error_line: int = 0
    error_class: str = ""
    symbol: str = ""
    errors: int = 0               # error lines found in the log
    tail: list[str] = field(default_factory=list)  # the log's last lines, when no error parsed


@dataclass
class Target:
    repo: str
    path: str                     # the build file, repository-relative
    kind: str                     # "cmake" or "make"
    results: dict[str, Build | None] = field(default_factory=dict)  # by side

    @property
    def name(self) -> str:
        return f"{self.repo}/{self.path}"

    @property
    def folder(self) -> str:
        return str(Path(self.path).parent)


# ------------------------------------------------------------ discovery --
def find_targets(corpus: Path, only: re.Pattern[str] | None,
                 sample: dict[str, int]) -> list[Target]:
    targets: list[Target] = []
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir()):
        found = repo_targets(repo)
        every = sample.get(repo.name, 1)
        found = found[::every]
        targets += [t for t in found if only is None or only.search(t.name)]
    return targets


def repo_targets(repo: Path) -> list[Target]:
    lists = sorted(p for p in repo.rglob("CMakeLists.txt") if p.is_file())
    texts = {p: p.read_text(errors="replace") for p in lists}
    projects = {p for p, text in texts.items() if PROJECT.search(text)}
    # Folders that a project above adds with add_subdirectory: parts, not programs.
    parts: set[Path] = set()
    for p in projects:
        for sub in SUBDIR.findall(texts[p]):
            parts.add((p.parent / sub.replace("${CMAKE_CURRENT_SOURCE_DIR}", ".")).resolve())
    found: list[Target] = []
    cmake_dirs: set[Path] = set()
    for p in sorted(projects):
        if any(d in parts for d in [p.parent.resolve(), *p.parent.resolve().parents]):
            continue
        cmake_text = "".join(t for q, t in texts.items() if p.parent in q.parents or q == p)
        cmake_text += "".join(m.read_text(errors="replace") for m in p.parent.rglob("*.cmake"))
        if "CUDA" not in cmake_text and "cuda" not in cmake_text:
            continue
        cmake_dirs.add(p.parent)
        found.append(Target(repo.name, p.relative_to(repo).as_posix(), "cmake"))
    for p in sorted(repo.rglob("*")):
        if p.name not in MAKEFILE_NAMES or not p.is_file() or p.parent in cmake_dirs:
            continue
        if NVCC_RULE.search(p.read_text(errors="replace")):
            found.append(Target(repo.name, p.relative_to(repo).as_posix(), "make"))
    return sorted(found, key=lambda t: t.path)


def target_digest(root: Path, target: Target, salt: str) -> str:
    """Digest of what a target's build may read: its folder, the local headers its
    sources may include (conditions ignored), every CMake module of the tree and
    the build files of the folders above."""
    root = root.resolve()
    folder = (root / target.folder).resolve()
    starts = [p.resolve() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()]
    starts += [p.resolve() for p in root.rglob("*.cmake") if p.is_file()]
    for up in [folder, *folder.parents]:
        if up != root and root not in up.parents:
            break
        starts += [p.resolve() for p in up.iterdir() if p.is_file() and BUILD_NAME.match(p.name)]
    return files_digest(root, starts, salt,
                        lambda path: [Path(a[2:]) for a in include_dirs(root, path)],
                        SOURCE_SUFFIXES)


# ------------------------------------------------------------ building --
@dataclass(frozen=True)
class Side:
    name: str
    cmake: str
    make: str
    cmake_args: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    version: str                  # compiler and tool versions, part of the cache key


def cuda_side(cmake: str, cuda_includes: Sequence[Path], cuda_libs: Sequence[Path]) -> Side:
    libs = os.pathsep.join(str(d) for d in cuda_libs)
    env = {"PATH": f"{NVCC.parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "CUDA_PATH": str(CUDA_ROOT), "CUDA_HOME": str(CUDA_ROOT), "CUDACXX": str(NVCC),
           "CPATH": os.pathsep.join(str(d) for d in cuda_includes)}
    if libs:  # found by CMake's find_library, by the linker, and for libraries they need
        env.update(CMAKE_LIBRARY_PATH=libs, LIBRARY_PATH=libs, LD_LIBRARY_PATH=libs)
    version = tool_version([str(NVCC), "--version"]) + tool_version([cmake, "--version"])
    return Side("cuda", cmake, "make",
                (f"-DCMAKE_CUDA_COMPILER={NVCC}", f"-DCMAKE_CUDA_ARCHITECTURES={CUDA_ARCH}"),
                tuple(sorted(env.items())), version)


def rocm_tools(release: str, cache: Path = TOOLCHAIN_CACHE) -> tuple[Path, Path]:
    """(folder of the hipcc/cmake/make wrappers, the chroot) of a ROCm release's oracle:
    6.4 is the first one (``bin/``, ``rocm-sid/``), later ones have a folder each
    (``rocm-7.2/bin``, ``rocm-7.2/root``), as scripts/setup-rocm-modern.sh installs them."""
    if release == "6.4":
        return cache / "bin", cache / "rocm-sid"
    return cache / f"rocm-{release}" / "bin", cache / f"rocm-{release}" / "root"


def lld_dir(root: Path) -> str:
    """The chroot's folder of ``ld.lld`` as seen inside it (its LLVM: 21 in ROCm 6.4's,
    22 in 7.2's), for ``-B``: the newest LLVM when it has several."""
    found = [p.parent for p in root.glob("usr/lib/llvm-*/bin/ld.lld")]
    if not found:
        return LLD_DIR
    newest = max(found, key=lambda d: int(re.sub(r"\D", "", d.parent.name) or 0))
    return "/" + newest.relative_to(root).as_posix()


def rocm_side(release: str = "6.4", cache: Path = TOOLCHAIN_CACHE) -> Side:
    tools, root = rocm_tools(release, cache)
    cmake, make = tools / "cmake", tools / "make"
    env = {"HIP_PLATFORM": "amd", "HIPCC_LINK_FLAGS_APPEND": "-fuse-ld=lld"}
    version = (hip_version(str(tools / "hipcc")) or "?") + tool_version([str(cmake),
                                                                         "--version"])
    version += oracle_stamp(root)
    flags = f"-fuse-ld=lld -B{lld_dir(root)}"
    return Side(f"rocm-{release}", str(cmake), str(make),
                (f"-DCMAKE_HIP_ARCHITECTURES={HIP_ARCH}",
                 *(f"-DCMAKE_{kind}_LINKER_FLAGS={flags}"
                   for kind in ("EXE", "SHARED", "MODULE"))),
                tuple(sorted(env.items())), version)


def oracle_stamp(root: Path) -> str:
    """What the chroot holds beyond its compiler's version (its packages, runtime
    libraries and checks: the setup script's stamp), so that cached builds of an
    oracle rebuilt with other packages are not taken for this one's."""
    try:
        stamp = (root / ".hipport-stamp").read_bytes()
    except OSError:
        return ""
    return " stamp " + hashlib.sha256(stamp).hexdigest()[:12]


def tool_version(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                             check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    lines = [s for s in out.splitlines() if s.strip()]
    return lines[-1] if "nvcc" in cmd[0] and lines else (lines[0] if lines else "?")


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[int, str]:
    try:
        proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                              errors="replace", timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        out = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
        return 124, out + "\ntimeout"
    return proc.returncode, proc.stdout + proc.stderr


def build_target(target: Target, tree: Path, side: Side, scratch: Path, make_vars: list[str],
                 jobs: int, timeout: float) -> Build:
    """Configure and build one target of ``tree`` (a repository) in ``scratch``."""
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    env = dict(os.environ, **dict(side.env))
    start = time.monotonic()
    roots = [tree.resolve(), scratch.resolve() / "tree"]
    if target.kind == "cmake":
        build = scratch / "build"
        cmd = [side.cmake, "-S", str(tree / target.folder), "-B", str(build),
               "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_POLICY_VERSION_MINIMUM=3.5",
               *side.cmake_args]
        code, log = run(cmd, env, scratch, timeout)
        (scratch / "configure.log").write_text(log)
        if code != 0:
            result = parse_configure(log, roots)
            result.seconds = round(time.monotonic() - start, 1)
            return result
        cmd = [side.cmake, "--build", str(build), "-j", str(jobs), "--", "-k"]
    else:
        shutil.copytree(tree, roots[1], symlinks=True)
        cmd = [side.make, "-k", "-j", str(jobs), "-C", str(roots[1] / target.folder),
               "-f", Path(target.path).name, *make_vars]
    code, log = run(cmd, env, scratch, timeout)
    (scratch / "build.log").write_text(log)
    result = parse_build(log, roots, code == 0)
    result.seconds = round(time.monotonic() - start, 1)
    if code == 0:
        shutil.rmtree(scratch, ignore_errors=True)  # keep failed builds to look at
    return result


def relative(where: str, roots: Sequence[Path]) -> str:
    path = Path(where)
    for root in roots:
        try:
            return path.resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            continue
    return where


def parse_configure(log: str, roots: Sequence[Path]) -> Build:
    lines = log.splitlines()
    for i, line in enumerate(lines):
        m = CMAKE_ERROR.match(line)
        if m is None:
            continue
        # The message: the rest of the line and the indented lines below it.
        block = [m.group("msg")]
        for more in lines[i + 1:i + 30]:
            if more.startswith(("CMake Error", "-- ", "CMake Warning", "Call Stack")):
                break
            block.append(more.strip())
        text = " ".join(s for s in block if s)
        klass, symbol = "cmake: other", " ".join(text.split()[:8])
        for name, pattern in CMAKE_CLASSES:
            found = pattern.search(text)
            if found is not None:
                klass, symbol = name, " / ".join(g for g in found.groups() if g)
                break
        where = relative(m.group("file") or "", roots)
        first = " ".join([line.strip(), *(s for s in block[1:] if s)])
        return Build(False, False, False, 0.0, "configure", first[:400],
                     where, int(m.group("line") or 0), klass, symbol, 1)
    return Build(False, False, False, 0.0, "configure", "configure failed", error_class="other",
                 tail=lines[-8:])


def error_records(log: str) -> list[tuple[str, str, int, str, str, str]]:
    """(line, file, line number, message, class, symbol) of each error line of a build log."""
    found: list[tuple[str, str, int, str, str, str]] = []
    for raw in log.splitlines():
        line = raw.strip()
        m = ERROR_LINE.match(line)
        if m is not None:
            where, msg = m.group("file"), m.group("msg")
            number = int(m.group("line") or m.group("nline") or 0)
        elif re.search(r"undefined reference to|cannot find -l|needed by .*not found|"
                       r"nvcc fatal|No rule to make target|: command not found|^ld(?:\.lld)?:"
                       r"|^g?make(?:\[\d+\])?: \S+: No such file or directory", line):
            where, msg, number = "", line, 0
        else:
            continue
        # A tool's own error (ld.lld: error: cannot open output file ...: No such file or
        # directory) is classed by the tool, not read as a compiler's missing header.
        klass, symbol = build_class(line if where in TOOLS else msg)
        found.append((line, where, number, msg, klass, symbol))
    return found


def build_class(msg: str) -> tuple[str, str]:
    for name, pattern in BUILD_CLASSES:
        m = pattern.search(msg)
        if m is not None:
            return name, " / ".join(g for g in m.groups() if g)
    return classify(msg)


def parse_build(log: str, roots: Sequence[Path], ok: bool) -> Build:
    records = error_records(log)
    compile_errors = [r for r in records if not r[4].startswith("link")]
    compiled = ok or (bool(records) and not compile_errors)
    if ok:
        return Build(True, True, True, 0.0, errors=len(records))
    if not records:
        return Build(True, False, False, 0.0, "build", "build failed", error_class="other",
                     tail=log.splitlines()[-8:])
    line, where, number, _, klass, symbol = (compile_errors or records)[0]
    if "/" not in where and not Path(where).suffix.lstrip(".").isalpha() or where in TOOLS:
        where = ""  # a driver or a tool: clang++, nvcc, collect2, ld.lld
    return Build(True, compiled, False, 0.0, "build", line[:400], relative(where, roots) if where
                 else "", number, klass, symbol, len(records))


# ---------------------------------------------------------------- main --
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, help="one folder per repository")
    parser.add_argument("--out", type=Path, required=True, help="results JSON (and .md beside)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="targets built at once")
    parser.add_argument("--build-jobs", type=int, default=1, help="make -j of each build")
    parser.add_argument("--hipport", type=Path, help="checkout to run (default: PYTHONPATH)")
    parser.add_argument("--work", type=Path, help="converted trees and build folders "
                                                  "(default: a folder in /tmp)")
    parser.add_argument("--cmake", help="CMake for the originals (default: the one beside "
                                        "this Python, else PATH's)")
    parser.add_argument("--cuda-include", type=Path, action="append", default=[],
                        help="more CUDA library headers for the originals (CPATH)")
    parser.add_argument("--cuda-lib", type=Path, action="append", default=[],
                        help="CUDA libraries for the originals (default: CORPUS/../cuda-lib)")
    parser.add_argument("--only", help="regex over REPO/BUILDFILE of the targets to keep")
    parser.add_argument("--sample", action="append", default=[], metavar="REPO=N",
                        help="keep every Nth target of REPO (sorted by path)")
    parser.add_argument("--make-var", action="append", default=[], metavar="REPO:VAR=VALUE",
                        help="a variable for make in REPO, on both sides")
    parser.add_argument("--all", action="store_true",
                        help="also build converted targets whose original does not compile")
    parser.add_argument("--no-original", action="store_true",
                        help="build no original: take their results from the cache")
    parser.add_argument("--no-convert", action="store_true",
                        help="reuse the converted trees in WORK")
    parser.add_argument("--summarize", action="store_true", help="only rewrite OUT's summary")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per command")
    parser.add_argument("--baseline", type=Path, help="an earlier results JSON to compare with")
    parser.add_argument("--rocm", action="append", default=[], metavar="X.Y[,X.Y]",
                        help=f"ROCm releases to convert for and build with, each with its own "
                             f"oracle ({', '.join(ROCM_RELEASES)}; default 6.4)")
    parser.add_argument("--report", action="store_true",
                        help="also run `hipport report` on each original (per release) to "
                             "find surprise failures: targets that fail with no blocker "
                             "finding")
    args = parser.parse_args(argv)

    if args.summarize:
        return write_results(args.out, json.loads(args.out.read_text()), args.baseline,
                             markdown)
    start = time.monotonic()
    corpus: Path = args.corpus.resolve()
    env, checkout, rev = checkout_env(args.hipport)
    if "--output" not in hipport_help(env):
        sys.exit(f"no hipport convert in {checkout}")
    cmake = args.cmake or next((str(p) for p in [Path(sys.executable).parent / "cmake"]
                                if p.is_file()), shutil.which("cmake") or "cmake")
    cuda_includes = [d for d in [REPO / ".toolchain/cuda-extra/include",
                                 corpus.parent / "cuda-include", *args.cuda_include]
                     if d.is_dir()]
    cuda_libs = [d for d in [corpus.parent / "cuda-lib", *args.cuda_lib] if d.is_dir()]
    releases = sorted({r for item in args.rocm for r in item.split(",") if r} or {"6.4"},
                      key=lambda r: tuple(map(int, r.split("."))))
    unknown = [r for r in releases if r not in ROCM_RELEASES]
    if unknown:
        sys.exit(f"--rocm {', '.join(unknown)}: not one of {', '.join(ROCM_RELEASES)}")
    sides = {"cuda": cuda_side(cmake, cuda_includes, cuda_libs)}
    for release in releases:
        tools, _ = rocm_tools(release)
        if not (tools / "cmake").is_file():
            sys.exit(f"--rocm {release}: no {tools / 'cmake'} (scripts/setup-rocm-modern.sh)")
        sides[f"rocm-{release}"] = rocm_side(release)
    rocm = [f"rocm-{r}" for r in releases]
    sample = {k: int(v) for k, _, v in (s.partition("=") for s in args.sample)}
    make_vars: dict[str, list[str]] = {}
    for item in args.make_var:
        repo, _, var = item.partition(":")
        make_vars.setdefault(repo, []).append(var)
    targets = find_targets(corpus, re.compile(args.only) if args.only else None, sample)
    work = (args.work or Path(tempfile.gettempdir()) / f"hipport-e2e-{args.out.stem}").resolve()
    print(f"[corpus] {len(targets)} targets; hipport {checkout} ({rev}); cmake {cmake}",
          file=sys.stderr)

    cache_path = args.out.parent / "e2e-cache.json"
    cache: dict[str, dict[str, Any]] = (
        json.loads(cache_path.read_text()) if cache_path.is_file() else {})
    lock = threading.Lock()
    reused = Counter[str]()

    def key_for(target: Target, side: Side, tree: Path) -> str:
        salt = "|".join([side.name, side.version, target.kind, target.path, *side.cmake_args,
                         *(f"{k}={v}" for k, v in side.env if k != "PATH"),
                         *make_vars.get(target.repo, [])])
        return target_digest(tree, target, salt)

    def one(item: tuple[Target, str, Path, bool]) -> None:
        target, side_name, tree, build_missing = item
        side = sides[side_name]
        target.results[side_name] = None
        if not (tree / target.path).is_file():
            target.results[side_name] = Build(
                False, False, False, 0.0, "convert", f"no {target.path} in the converted tree",
                error_class="conversion: build file missing")
            return
        key = key_for(target, side, tree)
        if key in cache:
            target.results[side_name] = Build(**cache[key])
            reused[side_name] += 1
            return
        if not build_missing:
            return
        scratch = work / "build" / side_name / re.sub(r"[^\w.-]+", "_", target.name)
        result = build_target(target, tree, side, scratch, make_vars.get(target.repo, []),
                              args.build_jobs, args.timeout)
        target.results[side_name] = result
        with lock:
            cache[key] = asdict(result)
            save_merged(cache_path, cache)

    cache_path.parent.mkdir(parents=True, exist_ok=True)
    run_pool(one, [(t, "cuda", corpus / t.repo, not args.no_original) for t in targets],
             args.jobs, "original builds")
    progress("original results reused from e2e-cache.json", reused["cuda"], len(targets))

    repos = sorted({t.repo for t in targets})
    conversions: dict[str, dict[str, dict[str, Any]]] = {}
    chosen = [t for t in targets if args.all or counts(t)]
    for side_name, release in zip(rocm, releases):
        if not args.no_convert:  # each release's own conversion, into WORK/rocm-X.Y/REPO
            oracle = Oracle(side_name, str(rocm_tools(release)[0] / "hipcc"), (),
                            ("--rocm-version", release))
            conversions[side_name] = convert(corpus, repos, work, oracle, env, 2)
        for t in targets:
            t.results[side_name] = None
    # One pool for every release: the builds of one target on 6.4 and 7.2 run side by side.
    run_pool(one, [(t, side_name, work / side_name / t.repo, True)
                   for t in chosen for side_name in rocm], args.jobs, "converted builds")
    for side_name in rocm:
        progress(f"{side_name} results reused from e2e-cache.json", reused[side_name],
                 len(chosen))
    blockers = (report_blockers(corpus, targets, rocm, env, args.jobs) if args.report
                else {})
    data: dict[str, Any] = {
        "schema": "hipport-e2e/2",
        "hipport": f"{checkout} ({rev})",
        "sides": {k: {"cmake": s.cmake, "make": s.make, "cmake_args": list(s.cmake_args),
                      "env": dict(s.env), "version": s.version} for k, s in sides.items()},
        "rocm": rocm,
        "make_vars": make_vars,
        "sample": sample,
        "only": args.only,
        "convert": {side: {k: {kk: vv for kk, vv in v.items() if kk != "missed"}
                           for k, v in done.items()} for side, done in conversions.items()},
        "blockers": blockers,
        "original_lines": map_error_lines(targets, rocm, corpus, work) if args.report else {},
        "seconds": round(time.monotonic() - start, 1),
        "targets": [asdict(t) for t in targets],
    }
    return write_results(args.out, data, args.baseline, markdown)


# The work each finding code leaves (hipport.diagnostics.model.Work), asked of the checkout.
WORK_OF_CODES = ("import json, sys\nfrom hipport.codes import CODES\n"
                 "json.dump({k: c.work_left.value for k, c in CODES.items()}, sys.stdout)")
BLOCKING = {"breaks-build", "changes-results"}  # the report's blockers (build and results)


def report_blockers(corpus: Path, targets: Sequence[Target], rocm: Sequence[str],
                    env: dict[str, str], jobs: int) -> dict[str, dict[str, list[list[Any]]]]:
    """Per converted side and repository with a failing target: ``[path, line, code]`` of
    every open blocker finding ``hipport report --rocm-version X.Y`` gives the original
    (SARIF, every location), so that a failure no finding announced shows as a surprise."""
    proc = subprocess.run([sys.executable, "-c", WORK_OF_CODES], env=env,
                          cwd=env["PYTHONPATH"], capture_output=True, text=True, check=False)
    work: dict[str, str] = json.loads(proc.stdout or "{}")
    wanted = sorted({(side, t.repo) for t in targets for side in rocm
                     if counts(t) and not ok(t, side, "built")})
    found: dict[str, dict[str, list[list[Any]]]] = {side: {} for side in rocm}

    def one(item: tuple[str, str]) -> None:
        side, repo = item
        cmd = [sys.executable, "-m", "hipport", "report", str(corpus / repo), "--format",
               "sarif", "-q", "-j", "1", "--rocm-version", side.removeprefix("rocm-")]
        proc = subprocess.run(cmd, env=env, cwd=env["PYTHONPATH"], capture_output=True,
                              text=True, check=False)
        try:
            results = [r for run in json.loads(proc.stdout)["runs"] for r in run["results"]]
        except (ValueError, KeyError, TypeError):
            found[side][repo] = [["", 0, f"report failed (exit {proc.returncode})"]]
            return
        rows: list[list[Any]] = []
        for r in results:
            if work.get(r.get("ruleId", "")) not in BLOCKING or r.get("properties", {}).get(
                    "applied"):
                continue
            for loc in r.get("locations", [])[:1]:
                where = loc.get("physicalLocation", {})
                rows.append([where.get("artifactLocation", {}).get("uri", ""),
                             where.get("region", {}).get("startLine", 0), r["ruleId"]])
        found[side][repo] = rows

    run_pool(one, wanted, jobs, "reports of the originals")
    return found


def original_lines(original: str, converted: str, line: int) -> range:
    """The lines of ``original`` that line ``line`` (1-based) of ``converted`` came from.

    The report's findings carry the original's line numbers and the build's error the
    converted file's; conversion moves lines (two includes become one, CMake gains
    ``find_package`` lines), so comparing the numbers as they are undercounts. A line
    of an unchanged stretch maps to its twin; a line of a rewritten stretch maps to
    every line of the stretch it replaced (empty when it was only inserted)."""
    old, new = original.splitlines(), converted.splitlines()
    at = line - 1
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new,
                                                       autojunk=False).get_opcodes():
        if j1 <= at < j2:
            if tag == "equal":
                return range(i1 + at - j1 + 1, i1 + at - j1 + 2)
            return range(i1 + 1, i2 + 1)
    return range(0)  # past the file's end


def map_error_lines(targets: Sequence[Target], rocm: Sequence[str], corpus: Path,
                    work: Path) -> dict[str, dict[str, list[int]]]:
    """Per side and failing target, the original's lines of the first error's line."""
    mapped: dict[str, dict[str, list[int]]] = {side: {} for side in rocm}
    for t in targets:
        for side in rocm:
            b = t.results.get(side)
            if b is None or b.built or not b.error_file or not b.error_line:
                continue
            before, after = corpus / t.repo / b.error_file, work / side / t.repo / b.error_file
            try:
                old = before.read_text(encoding="utf-8", errors="replace")
                new = after.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue  # a generated or renamed file: compare the numbers as they are
            mapped[side][t.name] = list(original_lines(old, new, b.error_line))
    return mapped


def announced(target: Target, side: str, blockers: dict[str, dict[str, list[list[Any]]]],
              mapped: dict[str, dict[str, list[int]]] | None = None) -> str:
    """Whether the static report foresaw a failing target: ``line`` (a blocker finding at
    the first error's line, in the original's numbering when ``mapped`` has it),
    ``target`` (one in the target's folder or the failing file), ``original`` (it
    compiles and fails at the link as the original does with CUDA, in the same
    class: not the conversion's failure; a library missing on the CUDA side is
    this machine's lack, so never that), ``""`` (none: a surprise failure) or
    ``?`` (no report was run)."""
    rows = blockers.get(side, {}).get(target.repo)
    if rows is None:
        return "?"
    b = target.results.get(side)
    cuda = target.results.get("cuda")
    if b is not None and b.compiled and cuda is not None and cuda.compiled and not cuda.built \
            and b.error_class == cuda.error_class != "link: missing library":
        return "original"
    where, line = (b.error_file, b.error_line) if b else ("", 0)
    lines = set((mapped or {}).get(side, {}).get(target.name, [line]))
    if any(path == where and number in lines for path, number, _ in rows):
        return "line"
    inside = target.folder in ("", ".")
    if any(path == where or inside or path.startswith(target.folder + "/")
           for path, _, _ in rows):
        return "target"
    return ""


def counts(target: Target) -> bool:
    """The original configures and every compile step succeeds."""
    b = target.results.get("cuda")
    return b is not None and b.compiled


def target_from(raw: dict[str, Any]) -> Target:
    return Target(raw["repo"], raw["path"], raw["kind"],
                  {k: (Build(**v) if v else None) for k, v in raw["results"].items()})


# ------------------------------------------------------------- summary --
def ok(target: Target, side: str, what: str) -> bool:
    b = target.results.get(side)
    return b is not None and bool(getattr(b, what))


def cell(n: int, of: int) -> str:
    return f"{n}/{of}" if of else "0/0"


def markdown(data: dict[str, Any], baseline: dict[str, Any] | None) -> str:
    targets = [target_from(t) for t in data["targets"]]
    valid = [t for t in targets if counts(t)]
    rocm: list[str] = data.get("rocm", [ORACLE])
    lines = [f"# Real-world corpus end to end: {data['hipport']}", "",
             f"{len(targets)} build targets ({sum(t.kind == 'cmake' for t in targets)} CMake, "
             f"{sum(t.kind == 'make' for t in targets)} make) in "
             f"{len({t.repo for t in targets})} repositories; {len(valid)} originals configure "
             f"and compile with CUDA (the targets that count). Converted for each release "
             f"(`--rocm-version`) and built with its own CMake/make "
             f"({', '.join(rocm)}), lld for every link. "
             f"Run took {data['seconds'] / 60:.1f} min.", "",
             "| repository | targets | original configures | original compiles | "
             "original links | " + " | ".join(
                 f"{side} configures | {side} compiles | {side} builds" if len(rocm) > 1 else
                 "converted configures | converted compiles | converted builds"
                 for side in rocm) + " |",
             "|---|---:|---:|---:|---:|" + "---:|---:|---:|" * len(rocm)]
    for repo in sorted({t.repo for t in targets}) + ["**all**"]:
        mine = [t for t in targets if repo in (t.repo, "**all**")]
        good = [t for t in mine if counts(t)]
        lines.append(
            f"| {repo} | {len(mine)} | {sum(ok(t, 'cuda', 'configured') for t in mine)} | "
            f"{len(good)} | {sum(ok(t, 'cuda', 'built') for t in mine)} | "
            + " | ".join(cell(sum(ok(t, side, w) for t in good), len(good))
                         for side in rocm for w in ("configured", "compiled", "built")) + " |")
    lines.append("")
    if len(rocm) > 1:
        first, *later = rocm
        for side in later:
            gained = [t for t in valid if ok(t, side, "built") and not ok(t, first, "built")]
            lost = [t for t in valid if ok(t, first, "built") and not ok(t, side, "built")]
            lines += [f"{side} against {first}: {len(gained)} targets build only on {side}, "
                      f"{len(lost)} only on {first}"
                      + (f" ({', '.join(t.name for t in lost[:8])})" if lost else "") + ".", ""]
    if baseline is not None:
        old = {t["repo"] + "/" + t["path"]: target_from(t) for t in baseline["targets"]}
        both = [t for t in valid if t.name in old and counts(old[t.name])]
        lines += [f"## Against the baseline ({baseline['hipport']})", ""]
        for side in [s for s in rocm if s in baseline.get("rocm", [ORACLE])]:
            was = [t for t in both if ok(old[t.name], side, "built")]
            now = [t for t in both if ok(t, side, "built")]
            broke = [t for t in was if not ok(t, side, "built")]
            fixed = [t for t in now if not ok(old[t.name], side, "built")]
            lines += [f"{side}: of {len(both)} targets counted in both: built {len(was)} → "
                      f"{len(now)}; fixed {len(fixed)}, broken {len(broke)}"
                      + (f" ({', '.join(t.name for t in broke[:5])})" if broke else "") + ".",
                      ""]
    blockers: dict[str, dict[str, list[list[Any]]]] = data.get("blockers") or {}
    mapped: dict[str, dict[str, list[int]]] = data.get("original_lines") or {}
    for side in rocm:
        failed = [t for t in valid if not ok(t, side, "built")]
        classes: Counter[str] = Counter()
        example: dict[str, Target] = {}
        for t in failed:
            b = t.results.get(side)
            key = b.error_class if b else "not built"
            classes[key] += 1
            example.setdefault(key, t)
        lines += [f"## {side}: first errors of {len(failed)} converted targets that do not "
                  "build", "", "| targets | class | example target | where | first error |",
                  "|---:|---|---|---|---|"]
        for key, n in classes.most_common():
            t = example[key]
            b = t.results.get(side)
            where = f"{b.error_file}:{b.error_line}" if b and b.error_file else ""
            err = short(b.first_error if b else "")
            lines.append(f"| {n} | {key} | {t.name} | {where} | `{err}` |")
        lines.append("")
        if side in blockers:
            seen = Counter(announced(t, side, blockers, mapped) for t in failed)
            surprises = [t for t in failed if announced(t, side, blockers, mapped) == ""]
            lines += [f"### {side}: surprise failures", "",
                      f"Of {len(failed)} failing targets, `hipport report --rocm-version "
                      f"{side.removeprefix('rocm-')}` on the original gave a blocker finding "
                      f"at the first error's line for {seen['line']}, elsewhere in the target "
                      f"for {seen['target']}; {seen['original']} compile and fail at the link "
                      f"as their original does; **none for {len(surprises)}** (surprises):",
                      "", "| target | first error |", "|---|---|"]
            lines += [f"| {t.name} | {error_cell(t.results.get(side))} |" for t in surprises]
            lines.append("")
    lines += ["## Per target", "",
              "| target | original | " + " | ".join(
                  f"{side} | {side}: first error" if len(rocm) > 1 else
                  "converted | converted: first error" for side in rocm) + " |",
              "|---|---|" + "---|---|" * len(rocm)]
    for t in targets:
        lines.append(f"| {t.name} | {state(t.results.get('cuda'))} | " + " | ".join(
            f"{state(t.results.get(side)) if counts(t) else '-'} | "
            f"{'' if not counts(t) else error_cell(t.results.get(side))}" for side in rocm)
            + " |")
    bad = [t for t in targets if not counts(t)]
    orig: Counter[str] = Counter()
    for t in bad:
        b = t.results.get("cuda")
        orig[b.error_class if b else "not built"] += 1
    lines += ["", f"Originals that do not count ({len(bad)}), by first error: "
              + ", ".join(f"{k} {n}" for k, n in orig.most_common()), ""]
    return "\n".join(lines)


def state(b: Build | None) -> str:
    if b is None:
        return "-"
    if b.built:
        return "builds"
    if b.compiled:
        return "compiles (link fails)"
    return "compile fails" if b.configured else f"{b.phase} fails"


def error_cell(b: Build | None) -> str:
    if b is None or b.built:
        return ""
    where = f"{b.error_file}:{b.error_line} " if b.error_file else ""
    return f"{b.error_class}: {where}`{short(b.first_error, 120)}`"


def short(text: str, width: int = 160) -> str:
    text = re.sub(r"/\S*/(?:rocm-\d+\.\d+|tree|cuda)/(?:[^/\s]+/)?", "", text)
    return text.replace("|", "\\|").replace("`", "'")[:width]


if __name__ == "__main__":
    raise SystemExit(main())
