"""Real-world corpus: do converted programs compile with HIP 5.2 and ROCm 6.4?

    PYTHONPATH=CHECKOUT .venv/bin/python benchmarks/realworld.py CORPUS \\
        --out RESULTS/NAME.json [-j 2] [--baseline RESULTS/OLD.json] [--strategy compat]

CORPUS holds one folder per public repository (fetched outside this
repository, never committed; docs/corpus.md says how it was built).  For
every translation unit (a .cu file, or a .cpp/.cc/.cxx/.c file that uses
CUDA) the script

1. compiles the original with nvcc (``-c``, sm_80, C++17; .c files as C),
   so only valid originals count.  Results are cached by file digest and
   command in ``nvcc-cache.json`` next to OUT;
2. converts each repository once per oracle with ``python -m hipport convert
   REPO -o WORK/ORACLE/REPO --force --no-cache`` (``--rocm-version 5.2`` for
   HIP 5.2; the checkout's default for ROCm 6.4).  The hipport that runs is
   the one on PYTHONPATH (``--hipport CHECKOUT`` sets it), so an old commit
   can be measured with this script;
3. compiles every converted TU whose original compiled, with each oracle
   (``hipcc --offload-arch=gfx90a -std=c++17 -c -x hip``; .c files ``-x c``):
   HIP 5.2 is Debian 12's /usr/bin/hipcc with the library headers of
   ``.toolchain/rocm-extra``, ROCm 6.4 the chroot's
   /var/cache/hipport/bin/hipcc (docs/toolchains.md).  Include paths: the
   TU's folder and each folder above it up to the repository, plus their
   utils/, common/, include/, inc/ and src/ subfolders;
4. records per TU: nvcc ok, ok per oracle, the first error line, its class
   (``unknown type name``, ``undeclared identifier``, ``missing header``,
   ...) and symbol, and whether it is in the TU or in a helper header.

``--strategy compat`` converts with ``--strategy compat`` (docs/single-source.md)
and also compiles each converted TU with the original's nvcc command: the
NVIDIA side must still compile, so the summary counts the TUs that compile
with nvcc AND each hipcc.  Either strategy records per repository the lines
the conversion changed (sources, build files, the generated header) and, for
compat, the names hip_compat.h lists as missed by the AMD build.

It writes OUT (JSON) and OUT with ``.md`` (the summary: counts per oracle and
per repository, programs whose every TU compiles, the top failure classes
with an example each, and with ``--baseline`` what changed).  Answers are
cached beside OUT (nvcc-cache.json, hip-cache.json), so a run of another
checkout compiles only the TUs whose converted text changed; docs/corpus.md
gives the figures and the time.
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
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
NVCC = Path("/usr/local/cuda/bin/nvcc")
SYSTEM_HIPCC = Path("/usr/bin/hipcc")
CHROOT_HIPCC = Path(os.environ.get("HIPPORT_TOOLCHAIN_CACHE", "/var/cache/hipport")) / "bin/hipcc"
TU_SUFFIXES = {".cu", ".cpp", ".cc", ".cxx", ".c"}
HELPER_DIRS = ("utils", "common", "include", "inc", "src")
USES_CUDA = re.compile(
    rb"cuda|cublas|cufft|curand|cusparse|cusolver|__global__|<<<|nvtx|nvml", re.IGNORECASE)
MAIN = re.compile(rb"\bint\s+main\s*\(")
SOURCE_SUFFIXES = TU_SUFFIXES | {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"}
BUILD_FILE = re.compile(r"(?:^|/)(?:CMakeLists\.txt|[^/]*\.cmake|(?:GNU)?[Mm]akefile[^/]*|"
                        r"[^/]*\.mk)$")
COMPAT_HEADER = "hip_compat.h"
# A name in hip_compat.h's "The AMD build will miss" block: ` *   NAME: why (origin)`.
MISSED_LINE = re.compile(r"^ \*   (?P<name><[^>]+>|\S+): (?P<why>.*?)(?: \([^()]*\))?$")
TIMEOUT = 600.0

# The first matching pattern names the class; its groups name the symbol.
CLASSES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern)) for name, pattern in (
        ("missing header", r"'([^']+)' file not found|([\w./-]+): No such file or directory"
                           r"|cannot open source file \"([^\"]+)\""),
        ("unknown type name", r"unknown type name '([^']+)'"),
        ("undeclared identifier", r"use of undeclared identifier '([^']+)'"
                                  r"|identifier \"([^\"]+)\" is undefined"),
        ("undeclared function", r"(?:call to )?undeclared function '([^']+)'"),
        ("void** argument", r"cannot initialize a parameter of type 'void \*\*' with an \w+ "
                            r"of type '([^']+)'"),
        ("no matching function", r"no matching (?:function|constructor|member function) for "
                                 r"(?:call to |initialization of )?'([^']+)'"),
        ("ambiguous", r"call to '([^']+)' is ambiguous|reference to '([^']+)' is ambiguous"
                      r"|conversion from '([^']+)' .* is ambiguous|(ambiguous)"),
        ("no member", r"no member named '([^']+)' in (?:namespace )?'([^']+)'"),
        ("no type in namespace", r"no type named '([^']+)' in (?:namespace )?'([^']+)'"),
        ("cannot initialize", r"cannot initialize an? (?:\w+ )*of type '([^']+)' with an \w+ "
                              r"of type '([^']+)'"),
        ("no viable conversion", r"no viable conversion from '([^']+)' to '([^']+)'"
                                 r"|cannot convert '([^']+)' to '([^']+)'"),
        ("incompatible types", r"(?:assigning to|passing) '([^']+)' (?:from|to parameter of "
                               r"type) (?:incompatible type )?'([^']+)'"),
        ("invalid operands", r"invalid operands to binary expression \(([^)]*)\)"),
        ("redefinition", r"redefinition of '([^']+)'|conflicting types for '([^']+)'"
                         r"|typedef redefinition .* \('([^']+)'"),
        ("wrong argument count", r"too (many|few) arguments to function call"),
        ("not a template / template args",
         r"no template named '([^']+)'|'([^']+)' is not a template|"
         r"explicit specialization of '([^']+)'"),
        ("inline asm", r"invalid (?:instruction|operand|register)|inline asm|"
                       r"couldn't allocate|unknown token in expression|invalid output constraint"
                       r"|unsupported .*asm"),
        ("device/host mismatch", r"reference to (__host__|__device__) function '([^']+)'"),
        ("static assertion", r"static assertion failed(?: due to requirement '([^']+)')?"),
        ("#error", r"^\(?\"([^\"]*)|^#error (.*)"),
        ("syntax", r"expected .*"),
    ))
ERROR_LINE = re.compile(
    r"^(?P<file>[^\s:()][^:()]*?)(?::(?P<line>\d+)(?::\d+)?|\((?P<nline>\d+)\))?:\s+"
    r"(?:fatal )?error:\s*(?P<msg>.*)$")


# ------------------------------------------------------------ data model --
@dataclass
class Compile:
    ok: bool
    seconds: float
    first_error: str = ""
    error_file: str = ""          # repository-relative where the first error is
    error_class: str = ""
    symbol: str = ""
    in_helper: bool = False       # the first error is in another file than the TU


@dataclass
class Unit:
    repo: str
    path: str                     # repository-relative
    program: str
    lang: str                     # "cu" or "c"
    nvcc: Compile | None = None
    hip: dict[str, Compile | None] = field(default_factory=dict)
    # --strategy compat: the converted TU (each oracle's tree) with the original's nvcc command.
    nvcc_converted: dict[str, Compile | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Oracle:
    name: str
    hipcc: str
    include_args: tuple[str, ...]
    convert_args: tuple[str, ...]


# ------------------------------------------------------------ discovery --
def find_units(corpus: Path, only: re.Pattern[str] | None) -> list[Unit]:
    units: list[Unit] = []
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir()):
        files = sorted(p for p in repo.rglob("*")
                       if p.suffix in TU_SUFFIXES and p.is_file() and not p.is_symlink())
        found = [(f, f.read_bytes()) for f in files]
        found = [(f, data) for f, data in found if f.suffix == ".cu" or USES_CUDA.search(data)]
        mains: Counter[Path] = Counter(f.parent for f, data in found if MAIN.search(data))
        for f, data in found:
            rel = f.relative_to(repo).as_posix()
            if only is not None and not only.search(f"{repo.name}/{rel}"):
                continue
            folder = f.parent.relative_to(repo).as_posix()
            # One program per folder, or per main() when a folder holds several.
            if mains[f.parent] > 1:
                program = f"{folder}/{f.stem}" if MAIN.search(data) else f"{folder}/*"
            else:
                program = folder
            units.append(Unit(repo.name, rel, program, "c" if f.suffix == ".c" else "cu"))
    return units


def include_dirs(root: Path, tu: Path) -> list[str]:
    dirs: list[str] = []
    folder = tu.parent
    while True:
        dirs.append(str(folder))
        dirs += [str(folder / h) for h in HELPER_DIRS if (folder / h).is_dir()]
        if folder == root or root not in folder.parents:
            break
        folder = folder.parent
    # Joined: hipcc 5.2 takes a separate argument ending in .c (llm.c/) for a source file.
    return [f"-I{d}" for d in dirs]


# ----------------------------------------------------------- compiling --
def first_error(stderr: str, root: Path, tu: str) -> Compile:
    for line in stderr.splitlines():
        m = ERROR_LINE.match(line.strip())
        if m is None:
            continue
        msg = m.group("msg")
        where = m.group("file")
        try:
            where = Path(where).resolve().relative_to(root.resolve()).as_posix()
        except (ValueError, OSError):
            pass
        klass, symbol = classify(msg)
        return Compile(False, 0.0, first_error=line.strip()[:400], error_file=where,
                       error_class=klass, symbol=symbol,
                       in_helper=where not in (tu, "clang", "nvcc", "hipcc", "clang++"))
    tail = [s for s in stderr.splitlines() if s.strip()]
    return Compile(False, 0.0, first_error=(tail[-1] if tail else "no output")[:400],
                   error_class="other", symbol="")


def classify(msg: str) -> tuple[str, str]:
    for name, pattern in CLASSES:
        m = pattern.search(msg)
        if m is not None:
            return name, " / ".join(g for g in m.groups() if g)
    return "other", " ".join(msg.split()[:6])


def run_compile(cmd: list[str], env: dict[str, str], root: Path, tu: str) -> Compile:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="hipport-corpus-", dir="/tmp") as tmp:
        try:
            proc = subprocess.run(cmd + ["-o", str(Path(tmp) / "out.o")], env=env, cwd=tmp,
                                  capture_output=True, text=True, errors="replace",
                                  timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return Compile(False, TIMEOUT, first_error="timeout", error_class="timeout")
    seconds = round(time.monotonic() - start, 2)
    if proc.returncode == 0:
        return Compile(True, seconds)
    result = first_error(proc.stderr + proc.stdout, root, tu)
    result.seconds = seconds
    return result


def nvcc_command(unit: Unit, root: Path, cuda_includes: Sequence[Path]) -> list[str]:
    tu = root / unit.path
    cmd = [str(NVCC), "-arch=sm_80"]
    if unit.lang == "cu":
        cmd += ["-std=c++17"]
    for d in cuda_includes:
        cmd += ["-isystem", str(d)]
    cmd += include_dirs(root, tu) + ["-c"]
    if unit.lang == "cu":
        cmd += ["-x", "cu"]
    return cmd + [str(tu)]


def hip_command(unit: Unit, root: Path, oracle: Oracle, syntax_only: bool = False) -> list[str]:
    tu = root / unit.path
    cmd = [oracle.hipcc, "--offload-arch=gfx90a"] + (["-fsyntax-only"] if syntax_only else [])
    cmd += ["-std=c++17"] if unit.lang == "cu" else []
    cmd += [*oracle.include_args, *include_dirs(root, tu), "-c"]
    # A C file is host code: the HIP headers need the platform (CMake's hip::host sets it).
    cmd += ["-x", "hip"] if unit.lang == "cu" else ["-x", "c", "-D__HIP_PLATFORM_AMD__",
                                                      "-Werror=implicit-function-declaration"]
    return cmd + [str(tu)]


INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]', re.MULTILINE)


def closure_digest(root: Path, tu: Path, salt: str) -> str:
    """Digest of the TU and every file of ``root`` it may include (conditions ignored).

    Two runs whose converted TU and local headers are the same bytes get the same
    compiler answer, so the second one is taken from the cache.
    """
    dirs = [Path(a[2:]) for a in include_dirs(root, tu)]
    return files_digest(root, [tu], salt, lambda _: dirs)


def files_digest(root: Path, starts: Iterable[Path], salt: str,
                 dirs_of: Callable[[Path], Sequence[Path]],
                 follow: Iterable[str] | None = None) -> str:
    """Digest of ``starts`` and every file of ``root`` they may include, followed through
    the including file's folder (quoted names) and ``dirs_of(including file)``; with
    ``follow``, only the #include lines of files with those suffixes are followed."""
    suffixes = None if follow is None else set(follow)
    seen: dict[Path, bytes] = {}
    todo = list(starts)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = data = path.read_bytes()
        if suffixes is not None and path.suffix not in suffixes:
            continue
        for m in INCLUDE.finditer(data):
            name = m.group(2).decode(errors="replace")
            where = ([path.parent] if m.group(1) == b'"' else []) + list(dirs_of(path))
            for d in where:
                cand = d / name
                if cand.is_file() and root in cand.resolve().parents:
                    todo.append(cand.resolve())
                    break
    h = hashlib.sha256(salt.encode())
    for path in sorted(seen):
        h.update(b"\0" + path.relative_to(root.resolve()).as_posix().encode() + b"\0")
        h.update(seen[path])
    return h.hexdigest()


def checkout_env(hipport: Path | None) -> tuple[dict[str, str], Path, str]:
    """The environment that runs ``hipport`` (default: PYTHONPATH's, else this checkout),
    the checkout, and its last commit ("hash subject")."""
    env = dict(os.environ)
    if hipport is not None:
        env["PYTHONPATH"] = str(hipport.resolve())
    checkout = Path(env.get("PYTHONPATH", str(REPO)).split(os.pathsep)[0]).resolve()
    env["PYTHONPATH"] = str(checkout)
    rev = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True, check=False).stdout.strip()
    return env, checkout, rev


def digest(path: Path, cmd: Sequence[str]) -> str:
    h = hashlib.sha256(path.read_bytes())
    h.update("\0".join(cmd).encode())
    return h.hexdigest()


def check_originals(units: list[Unit], corpus: Path, cuda_includes: Sequence[Path],
                    cache_path: Path, jobs: int, compile_missing: bool = True) -> None:
    cache: dict[str, dict[str, Any]] = {}
    if cache_path.is_file():
        cache = json.loads(cache_path.read_text())
    todo: list[tuple[Unit, list[str], str]] = []
    for unit in units:
        cmd = nvcc_command(unit, corpus / unit.repo, cuda_includes)
        key = digest(corpus / unit.repo / unit.path, cmd)
        if key in cache:
            unit.nvcc = Compile(**cache[key])
        else:
            todo.append((unit, cmd, key))
    progress("nvcc", len(units) - len(todo), len(units))
    if not compile_missing:
        return

    cache_path.parent.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()

    def work(item: tuple[Unit, list[str], str]) -> None:
        unit, cmd, key = item
        unit.nvcc = run_compile(cmd, dict(os.environ), corpus / unit.repo, unit.path)
        with lock:  # saved as it goes: an interrupted run keeps what it compiled
            cache[key] = asdict(unit.nvcc)
            save_merged(cache_path, cache)

    run_pool(work, todo, jobs, "nvcc")


def check_converted(units: list[Unit], oracles: Sequence[Oracle], work: Path,
                    cuda_includes: Sequence[Path], cache_path: Path, jobs: int,
                    every: bool = False, reverse: bool = False) -> None:
    """Compile each oracle's converted TU with the original's nvcc command (compat: the
    NVIDIA build of the single-source tree must still compile).  Cached in ``cache_path``
    by the digest of the TU and the local headers it may include (hip_compat.h too)."""
    cache: dict[str, dict[str, Any]] = (
        json.loads(cache_path.read_text()) if cache_path.is_file() else {})
    todo: list[tuple[Unit, str, Path, list[str], str]] = []
    reused = 0
    for unit in units:
        for o in oracles:
            unit.nvcc_converted[o.name] = None
            root = (work / o.name / unit.repo).resolve()
            if not (every or unit.nvcc is None or unit.nvcc.ok):
                continue
            if not (root / unit.path).is_file():
                unit.nvcc_converted[o.name] = Compile(False, 0.0, first_error="no converted file",
                                                      error_class="conversion failed")
                continue
            cmd = nvcc_command(unit, root, cuda_includes)
            salt = "nvcc|" + "|".join(a for a in cmd[:-1] if not a.startswith("-I"))
            key = closure_digest(root, root / unit.path, salt)
            if key in cache:
                unit.nvcc_converted[o.name] = Compile(**cache[key])
                reused += 1
            else:
                todo.append((unit, o.name, root, cmd, key))
    progress("nvcc (converted) results reused from nvcc-cache.json", reused, reused + len(todo))
    lock = threading.Lock()

    def work_one(item: tuple[Unit, str, Path, list[str], str]) -> None:
        unit, oracle, root, cmd, key = item
        unit.nvcc_converted[oracle] = result = run_compile(cmd, dict(os.environ), root,
                                                           unit.path)
        with lock:
            cache[key] = asdict(result)
            save_merged(cache_path, cache)

    run_pool(work_one, todo[::-1] if reverse else todo, jobs, "nvcc (converted)")


def save_merged(path: Path, cache: dict[str, dict[str, Any]]) -> None:
    try:
        on_disk: dict[str, dict[str, Any]] = json.loads(path.read_text())
    except (OSError, ValueError):
        on_disk = {}
    cache.update({k: v for k, v in on_disk.items() if k not in cache})
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(cache, indent=0, sort_keys=True))
    tmp.replace(path)


def run_pool(work: Any, items: Sequence[Any], jobs: int, label: str) -> None:
    done = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for _ in pool.map(work, items):
            done += 1
            if done % 20 == 0 or done == len(items):
                progress(label, done, len(items))


def progress(label: str, done: int, total: int) -> None:
    print(f"[corpus] {label}: {done}/{total}", file=sys.stderr, flush=True)


# ------------------------------------------------------------ oracles --
def hip_version(hipcc: str) -> str | None:
    try:
        proc = subprocess.run([hipcc, "--version"], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, HIP_PLATFORM="amd"), check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"HIP version: (\d+)\.(\d+)", proc.stdout)
    return f"{m.group(1)}.{m.group(2)}" if m else None


def find_oracles(wanted: Sequence[str], rocm_version_flag: bool) -> list[Oracle]:
    extra = os.environ.get("HIPPORT_HIP_EXTRA_INCLUDES")
    extra_dirs = ([Path(p) for p in extra.split(os.pathsep) if p] if extra is not None
                  else [REPO / ".toolchain/rocm-extra/usr/include"])
    found: list[Oracle] = []
    for hipcc, includes, prefix in (
            (SYSTEM_HIPCC, tuple(a for d in extra_dirs if d.is_dir()
                                 for a in ("-isystem", str(d))), "hip"),
            (CHROOT_HIPCC, (), "rocm")):
        version = hip_version(str(hipcc)) if hipcc.exists() else None
        if version is None:
            continue
        name = f"{prefix}-{version}"
        if wanted and name not in wanted:
            continue
        # The oldest target needs --rocm-version; ROCm 6.4 takes the default.
        older = tuple(map(int, version.split("."))) < (6, 4)
        convert = ("--rocm-version", version) if rocm_version_flag and older else ()
        found.append(Oracle(name, str(hipcc), includes, convert))
    missing = set(wanted) - {o.name for o in found}
    if missing:
        sys.exit(f"oracle(s) not found: {', '.join(sorted(missing))}")
    return found


# ---------------------------------------------------------- converting --
def hipport_help(env: dict[str, str]) -> str:
    proc = subprocess.run([sys.executable, "-m", "hipport", "convert", "--help"], env=env,
                          cwd=env["PYTHONPATH"], capture_output=True, text=True, check=False)
    return proc.stdout


def convert(corpus: Path, repos: Iterable[str], out: Path, oracle: Oracle,
            env: dict[str, str], jobs: int, strategy: str = "rewrite") -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for repo in repos:
        target = out / oracle.name / repo
        if target.exists():
            shutil.rmtree(target)
        cmd = [sys.executable, "-m", "hipport", "convert", str(corpus / repo), "-o", str(target),
               "--force", "--no-cache", "-q", "-j", str(jobs), *oracle.convert_args,
               *(["--strategy", strategy] if strategy != "rewrite" else [])]
        start = time.monotonic()
        # cwd: `python -m` puts the current folder first on sys.path, ahead of PYTHONPATH.
        proc = subprocess.run(cmd, env=env, cwd=env["PYTHONPATH"], capture_output=True,
                              text=True, check=False)
        summary = [s for s in (proc.stdout + proc.stderr).splitlines() if s.strip()]
        results[repo] = {"exit": proc.returncode, "seconds": round(time.monotonic() - start, 1),
                         "summary": summary[-1] if summary else "", "args": cmd[3:],
                         "diff": diff_stat(corpus / repo, target),
                         "missed": name_uses(target, missed_names(target / COMPAT_HEADER))}
        progress(f"convert {oracle.name} {repo}: exit {proc.returncode}", 1, 1)
    return results


def file_kind(rel: str) -> str:
    if rel == COMPAT_HEADER:
        return "generated header"
    if BUILD_FILE.search(rel):
        return "build files"
    return "sources" if Path(rel).suffix in SOURCE_SUFFIXES else "other"


def changed_lines(old: bytes, new: bytes) -> tuple[int, int]:
    """(added, removed) lines of a unified diff of ``old`` and ``new``."""
    diff = difflib.unified_diff(old.decode(errors="replace").splitlines(),
                                new.decode(errors="replace").splitlines(), n=0, lineterm="")
    added = removed = 0
    for line in diff:
        if line.startswith(("+++", "---")):
            continue
        added += line.startswith("+")
        removed += line.startswith("-")
    return added, removed


def diff_stat(original: Path, converted: Path) -> dict[str, dict[str, int]]:
    """Per kind of file: files touched (changed or new), lines added and removed."""
    stat: dict[str, dict[str, int]] = defaultdict(
        lambda: {"files": 0, "new files": 0, "added": 0, "removed": 0})
    if not converted.is_dir():
        return {}
    for path in sorted(p for p in converted.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(converted).as_posix()
        before = original / rel
        old = before.read_bytes() if before.is_file() else b""
        new = path.read_bytes()
        if before.is_file() and old == new:
            continue
        added, removed = changed_lines(old, new)
        row = stat[file_kind(rel)]
        row["files"] += 1
        row["new files"] += not before.is_file()
        row["added"] += added
        row["removed"] += removed
    return dict(stat)


def missed_names(header: Path) -> dict[str, str]:
    """The names a generated hip_compat.h says the AMD build will miss, and why."""
    if not header.is_file():
        return {}
    missed: dict[str, str] = {}
    inside = False
    for line in header.read_text(errors="replace").splitlines():
        if line.startswith("/* The AMD build will miss"):
            inside = True
        elif inside and line.strip() == "*/":
            break
        elif inside and (m := MISSED_LINE.match(line)):
            missed[m.group("name")] = m.group("why")
    return missed


def name_uses(root: Path, names: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Each name with its reason and the number of source files of ``root`` naming it."""
    uses: dict[str, dict[str, Any]] = {name: {"why": why, "files": 0}
                                       for name, why in names.items()}
    if not names:
        return uses
    words = {name.strip("<>"): name for name in names}
    pattern = re.compile(r"(?<![\w.])(" + "|".join(
        re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?!\w)")
    for path in root.rglob("*"):
        if path.name == COMPAT_HEADER or path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        for word in set(pattern.findall(path.read_text(errors="replace"))):
            uses[words[word]]["files"] += 1
    return uses


# ------------------------------------------------------------- summary --
def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f} %)" if b else "0/0"


def markdown(data: dict[str, Any], baseline: dict[str, Any] | None) -> str:
    units = [unit_from(u) for u in data["units"]]
    oracles: list[str] = data["oracles"]
    valid = [u for u in units if u.nvcc is not None and u.nvcc.ok]
    old = ({(u["repo"], u["path"]): unit_from(u) for u in baseline["units"]}
           if baseline else {})
    lines = [f"# Real-world corpus: {data['hipport']}", "",
             f"{len(units)} translation units in {len({(u.repo, u.program) for u in units})} "
             f"programs from {len({u.repo for u in units})} repositories; "
             f"{len(valid)} compile with nvcc (the originals that count). "
             f"Strategy: {data.get('strategy', 'rewrite')}. "
             f"Compile: `hipcc --offload-arch=gfx90a -std=c++17 {data.get('hip_mode', '-c')}`. "
             f"Run took {data['seconds'] / 60:.1f} min.", ""]
    head = "| repository | TUs | nvcc ok | " + " | ".join(oracles) + " |"
    lines += [head, "|---" * (3 + len(oracles)) + "|"]
    for repo in sorted({u.repo for u in units}) + ["**all**"]:
        mine = [u for u in units if repo in (u.repo, "**all**")]
        ok = [u for u in mine if u.nvcc is not None and u.nvcc.ok]
        cells = [pct(sum(1 for u in ok if hip_ok(u, o)), len(ok)) for o in oracles]
        lines.append(f"| {repo} | {len(mine)} | {len(ok)} | " + " | ".join(cells) + " |")
    programs: dict[tuple[str, str], list[Unit]] = defaultdict(list)
    for u in valid:
        programs[(u.repo, u.program)].append(u)
    whole = {o: sum(1 for p in programs.values() if all(hip_ok(u, o) for u in p)) for o in oracles}
    lines += ["", "Programs whose every nvcc-valid TU compiles: " + ", ".join(
        f"{o} {pct(whole[o], len(programs))}" for o in oracles), ""]
    if data.get("strategy") == "compat":
        lines += single_source(units, oracles)
    lines += changed_summary(data)
    if baseline is not None:
        lines += [f"## Against the baseline ({baseline['hipport']})", "",
                  "| oracle | baseline | now | fixed | broken |", "|---|---:|---:|---:|---:|"]
        for o in oracles:
            both = [u for u in valid if (u.repo, u.path) in old]
            was = [u for u in both if hip_ok(old[(u.repo, u.path)], o)]
            now = [u for u in both if hip_ok(u, o)]
            broke = [u for u in was if not hip_ok(u, o)]
            fixed = len(now) - len(was) + len(broke)
            eg = f" (e.g. {broke[0].repo}/{broke[0].path})" if broke else ""
            lines.append(f"| {o} | {len(was)} | {len(now)} | {fixed} | {len(broke)}{eg} |")
        lines.append("")
    for o in oracles:
        failed = [u for u in valid if not hip_ok(u, o)]
        kinds: Counter[str] = Counter()
        classes: Counter[tuple[str, str, bool]] = Counter()
        example: dict[tuple[str, str, bool], Unit] = {}
        for u in failed:
            c = u.hip.get(o)
            key = (c.error_class, c.symbol, c.in_helper) if c else ("not compiled", "", False)
            kinds[key[0]] += 1
            classes[key] += 1
            example.setdefault(key, u)
        lines += [f"## {o}: failure classes of {len(failed)} TUs", "",
                  " · ".join(f"{k} {n}" for k, n in kinds.most_common()), "",
                  "| TUs | class | symbol | in a helper | example TU | first error |",
                  "|---:|---|---|---|---|---|"]
        for key, n in classes.most_common(15):
            u = example[key]
            c = u.hip.get(o)
            err = (c.first_error if c else "").replace("|", "\\|")
            err = re.sub(r"^/\S+/" + re.escape(o) + "/", "", err)[:160]
            lines.append(f"| {n} | {key[0]} | `{key[1]}` | {'yes' if key[2] else 'no'} | "
                         f"{u.repo}/{u.path} | `{err}` |")
        lines.append("")
    return "\n".join(lines)


def single_source(units: list[Unit], oracles: list[str]) -> list[str]:
    """Compat: the converted TUs that compile with nvcc AND each hipcc."""
    lines = ["## Single source: the converted TU with nvcc AND hipcc", "",
             "| repository | nvcc ok | " + " | ".join(
                 f"{o} tree: nvcc | nvcc AND {o}" for o in oracles) + " |",
             "|---" * (2 + 2 * len(oracles)) + "|"]
    for repo in sorted({u.repo for u in units}) + ["**all**"]:
        ok = [u for u in units if repo in (u.repo, "**all**") and u.nvcc is not None and u.nvcc.ok]
        cells = [pct(sum(1 for u in ok if converted_ok(u, o) and (nvcc_only or hip_ok(u, o))),
                     len(ok)) for o in oracles for nvcc_only in (True, False)]
        lines.append(f"| {repo} | {len(ok)} | " + " | ".join(cells) + " |")
    broken = [(u, o) for u in units for o in oracles
              if u.nvcc is not None and u.nvcc.ok and not converted_ok(u, o)]
    lines += ["", f"Converted TUs nvcc no longer compiles (the original does): {len(broken)}", ""]
    if broken:
        lines += ["| tree | TU | first error |", "|---|---|---|"]
        for u, o in broken[:20]:
            c = u.nvcc_converted.get(o)
            err = (c.first_error if c else "not compiled").replace("|", "\\|")[:200]
            lines.append(f"| {o} | {u.repo}/{u.path} | `{err}` |")
        lines.append("")
    return lines


def changed_summary(data: dict[str, Any]) -> list[str]:
    """Lines the conversion changed (whole repositories), and compat's missed names."""
    lines: list[str] = []
    for o, repos in data.get("convert", {}).items():
        totals: dict[str, Counter[str]] = defaultdict(Counter)
        missed: dict[str, tuple[str, int, int]] = {}
        for result in repos.values():
            for kind, row in result.get("diff", {}).items():
                totals[kind].update(row)
            for name, use in result.get("missed", {}).items():
                _, files, count = missed.get(name, (use["why"], 0, 0))
                missed[name] = (use["why"], files + use["files"], count + 1)
        if not totals:
            continue
        lines += [f"## {o}: lines changed ({len(repos)} repositories, whole)", "",
                  "| files | touched | new | lines added | lines removed |",
                  "|---|---:|---:|---:|---:|"]
        for kind in sorted(totals):
            row = totals[kind]
            lines.append(f"| {kind} | {row['files']} | {row['new files']} | {row['added']} | "
                         f"{row['removed']} |")
        lines.append("")
        if missed:
            top = sorted(missed.items(), key=lambda kv: (-kv[1][1], -kv[1][2], kv[0]))[:20]
            lines += [f"{o}: hip_compat.h lists {len(missed)} names the AMD build will miss "
                      "(top 20 by source files naming them)", "",
                      "| name | why | files | repositories |", "|---|---|---:|---:|"]
            lines += [f"| `{name}` | {why} | {files} | {count} |"
                      for name, (why, files, count) in top]
            lines.append("")
    return lines


def converted_ok(unit: Unit, oracle: str) -> bool:
    c = unit.nvcc_converted.get(oracle)
    return c is not None and c.ok


def hip_ok(unit: Unit, oracle: str) -> bool:
    c = unit.hip.get(oracle)
    return c is not None and c.ok


def unit_from(raw: dict[str, Any]) -> Unit:
    nvcc = Compile(**raw["nvcc"]) if raw.get("nvcc") else None
    hip = {k: (Compile(**v) if v else None) for k, v in raw.get("hip", {}).items()}
    converted = {k: (Compile(**v) if v else None)
                 for k, v in raw.get("nvcc_converted", {}).items()}
    return Unit(raw["repo"], raw["path"], raw["program"], raw["lang"], nvcc, hip, converted)


# ---------------------------------------------------------------- main --
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=Path, help="one folder per repository")
    parser.add_argument("--out", type=Path, required=True, help="results JSON (and .md beside)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--hipport", type=Path, help="checkout to run (default: PYTHONPATH)")
    parser.add_argument("--work", type=Path, help="converted trees (default: a folder in /tmp)")
    parser.add_argument("--oracle", action="append", default=[],
                        help="hip-5.2, rocm-6.4 (repeatable; default: both)")
    parser.add_argument("--cuda-include", type=Path, action="append", default=[],
                        help="more CUDA library headers for nvcc (default: .toolchain/"
                             "cuda-extra/include and CORPUS/../cuda-include)")
    parser.add_argument("--only", help="regex over REPO/PATH of the TUs to keep")
    parser.add_argument("--all", action="store_true",
                        help="also compile converted TUs whose original fails with nvcc")
    parser.add_argument("--syntax-only", action="store_true",
                        help="hipcc -fsyntax-only instead of -c (faster; no device code "
                             "generation, so inline assembly goes unchecked)")
    parser.add_argument("--no-nvcc", action="store_true",
                        help="compile no original: take nvcc results from the cache, and "
                             "compile the converted TUs of the others too")
    parser.add_argument("--summarize", action="store_true",
                        help="only rewrite OUT's summary (nvcc results the run lacked come "
                             "from the cache)")
    parser.add_argument("--reverse", action="store_true",
                        help="compile in reverse order: two runs started together (two "
                             "checkouts) share hip-cache.json and meet in the middle")
    parser.add_argument("--baseline", type=Path, help="an earlier results JSON to compare with")
    parser.add_argument("--strategy", choices=("rewrite", "compat"), default="rewrite",
                        help="hipport's conversion strategy: compat compiles each TU as "
                             "the single-source AMD build (the generated hip_compat.h)")
    args = parser.parse_args(argv)

    start = time.monotonic()
    corpus: Path = args.corpus.resolve()
    env, checkout, rev = checkout_env(args.hipport)
    help_text = hipport_help(env)
    if "--output" not in help_text:
        sys.exit(f"no hipport convert in {checkout}")
    oracles = find_oracles(args.oracle, "--rocm-version" in help_text)
    cuda_includes = [d for d in [REPO / ".toolchain/cuda-extra/include",
                                 corpus.parent / "cuda-include", *args.cuda_include]
                     if d.is_dir()]
    units = find_units(corpus, re.compile(args.only) if args.only else None)
    print(f"[corpus] {len(units)} TUs; hipport {checkout} ({rev}); oracles "
          f"{', '.join(o.name for o in oracles)}", file=sys.stderr)

    nvcc_cache = args.out.parent / "nvcc-cache.json"
    if args.summarize:
        saved = json.loads(args.out.read_text())
        old_units = [unit_from(u) for u in saved["units"]]
        check_originals(old_units, corpus, cuda_includes, nvcc_cache, args.jobs, False)
        saved["units"] = [asdict(u) for u in old_units]
        return write_results(args.out, saved, args.baseline)
    check_originals(units, corpus, cuda_includes, nvcc_cache, args.jobs, not args.no_nvcc)
    work = (args.work or Path(tempfile.gettempdir()) / f"hipport-corpus-{args.out.stem}")
    work = work.resolve()
    repos = sorted({u.repo for u in units})
    conversions = {o.name: convert(corpus, repos, work, o, env, args.jobs, args.strategy)
                   for o in oracles}

    jobs: list[tuple[Unit, Oracle]] = []
    for unit in units:
        for o in oracles:
            unit.hip[o.name] = None
            if args.all or unit.nvcc is None or unit.nvcc.ok:
                jobs.append((unit, o))

    hip_cache_path = args.out.parent / "hip-cache.json"
    hip_cache: dict[str, dict[str, Any]] = (
        json.loads(hip_cache_path.read_text()) if hip_cache_path.is_file() else {})
    lock = threading.Lock()
    reused = 0

    def work_one(item: tuple[Unit, Oracle]) -> None:
        nonlocal reused
        unit, o = item
        root = (work / o.name / unit.repo).resolve()
        if not (root / unit.path).is_file():
            unit.hip[o.name] = Compile(False, 0.0, first_error="no converted file",
                                       error_class="conversion failed")
            return
        cmd = hip_command(unit, root, o, args.syntax_only)
        salt = "|".join([o.name, o.hipcc, *o.include_args, *(
            a for a in cmd if a.startswith("-") and not a.startswith("-I"))])
        key = closure_digest(root, root / unit.path, salt)
        if key in hip_cache:
            unit.hip[o.name] = Compile(**hip_cache[key])
            reused += 1
            return
        hip_env = dict(os.environ, HIP_PLATFORM="amd")
        unit.hip[o.name] = result = run_compile(cmd, hip_env, root, unit.path)
        with lock:  # saved as it goes; merged with what a concurrent run saved
            hip_cache[key] = asdict(result)
            save_merged(hip_cache_path, hip_cache)

    run_pool(work_one, jobs[::-1] if args.reverse else jobs, args.jobs, "hipcc")
    progress("hipcc results reused from hip-cache.json", reused, len(jobs))
    if args.strategy == "compat":
        check_converted(units, oracles, work, cuda_includes, nvcc_cache, args.jobs, args.all,
                        args.reverse)
    data: dict[str, Any] = {
        "schema": "hipport-corpus/1",
        "hipport": f"{checkout} ({rev})",
        "oracles": [o.name for o in oracles],
        "convert": conversions,
        "cuda_includes": [str(d) for d in cuda_includes],
        "hip_mode": "-fsyntax-only" if args.syntax_only else "-c",
        "strategy": args.strategy,
        "seconds": round(time.monotonic() - start, 1),
        "units": [asdict(u) for u in units],
    }
    return write_results(args.out, data, args.baseline)


def write_results(out: Path, data: dict[str, Any], baseline_path: Path | None,
                  summarize: Callable[[dict[str, Any], dict[str, Any] | None], str] = markdown
                  ) -> int:
    """Write OUT (JSON) and its summary (OUT with .md, also printed)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1))
    baseline = json.loads(baseline_path.read_text()) if baseline_path else None
    summary = summarize(data, baseline)
    out.with_suffix(".md").write_text(summary + "\n")
    print(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
